/** Names listed at most, so Tab over a long list prints a screenful, not hundreds of lines. */
export const MAX_CANDIDATES = 50;

/**
 * Completes `typed` against `words`, as a shell does: one match is completed whole (`match`);
 * several are completed to their common beginning and listed (up to MAX_CANDIDATES).
 */
export function completeWord(
  typed: string,
  words: readonly string[],
): { insert: string; candidates: string[]; match?: string } {
  const matches = [...new Set(words.filter((word) => word.startsWith(typed)))].sort();
  if (matches.length === 0) return { insert: '', candidates: [] };
  if (matches.length === 1) {
    const match = matches[0]!;
    return { insert: match.slice(typed.length), candidates: [], match };
  }
  return {
    insert: commonPrefix(matches).slice(typed.length),
    candidates: matches.slice(0, MAX_CANDIDATES),
  };
}

export function commonPrefix(words: readonly string[]): string {
  let common = words[0] ?? '';
  for (const word of words) while (!word.startsWith(common)) common = common.slice(0, -1);
  return common;
}
