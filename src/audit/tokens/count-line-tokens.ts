// Longest run of lines whose joint count is compared with the sum of their own counts. A
// piece crosses a line end through a run of blank lines or into leading slashes; 3 lines
// sufficed in every test (2 did not), so 6 leaves margin at a bounded cost.
const MAX_STICKY_WINDOW_LINES = 6;

// A line whose leading whitespace holds a line break (a blank line, `  \r...`): a piece such
// as `\s*[\r\n]+` can run into it from the line before.
const LEADING_SPACE_HAS_BREAK = /^(?:(?![\r\n])\p{White_Space})*[\r\n]/u;
// A line that is empty or ends with punctuation before its break: o200k's ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
// can carry on through the break into slashes that start the next line.
const ENDS_WITH_PUNCTUATION = /(?:^|[^\p{White_Space}\p{L}\p{N}])[\r\n]*$/u;

/** A text's lines, each through its `\n` inclusive; the last may lack one. `''` has none. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline + 1;
    lines.push(text.slice(start, end));
    start = end;
  }
  return lines;
}

/**
 * Tokens per line whose sum over any run of lines is at least the tokens of that run's text.
 * Where no pre-tokenizer piece can cross a line end, counting lines alone is exact there.
 * Where one can ("sticky"), the line is charged the most that joining it with the sticky
 * lines after it costs, over windows of up to MAX_STICKY_WINDOW_LINES lines.
 */
export function countLineTokens(
  lines: readonly string[],
  count: (text: string) => number,
  slashJoinsPunctuation: boolean,
): number[] {
  return countLineTokensAndTotal(lines, count, slashJoinsPunctuation).lineTokens;
}

/**
 * `countLineTokens` and the exact count of the whole text in one pass: a line end that no piece
 * can cross is a piece boundary, so the text's count is the sum of its lines' own counts, each
 * run of lines joined by sticky ends counted as one text. A file that may be split is then
 * counted once per line instead of once per line and once whole.
 */
export function countLineTokensAndTotal(
  lines: readonly string[],
  count: (text: string) => number,
  slashJoinsPunctuation: boolean,
): { lineTokens: number[]; total: number } {
  const own = lines.map(count);
  const isSticky = (index: number): boolean => {
    const next = lines[index + 1];
    if (next === undefined) return false;
    if (LEADING_SPACE_HAS_BREAK.test(next)) return true;
    return (
      slashJoinsPunctuation &&
      next.startsWith('/') &&
      ENDS_WITH_PUNCTUATION.test(lines[index] ?? '')
    );
  };
  const sticky = lines.map((_, index) => isSticky(index));
  const lineTokens = own.map((tokens, start) => {
    let extra = 0;
    let joined = lines[start] ?? '';
    let separate = tokens;
    for (let end = start; sticky[end] && end + 1 < start + MAX_STICKY_WINDOW_LINES; end++) {
      joined += lines[end + 1];
      separate += own[end + 1] ?? 0;
      extra = Math.max(extra, count(joined) - separate);
    }
    return tokens + extra;
  });
  let total = 0;
  let group = '';
  for (const [index, line] of lines.entries()) {
    if (group === '' && !sticky[index]) {
      total += own[index] ?? 0;
      continue;
    }
    group += line;
    if (!sticky[index]) {
      total += count(group);
      group = '';
    }
  }
  return { lineTokens, total };
}
