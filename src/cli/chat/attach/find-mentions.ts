/** `@path` at the start of the input or after a space; the path runs to the next space. */
const MENTION = /(^|\s)@([^\s@]+)/gu;
/** Sentence punctuation after a mention is not part of the path (`see @a.ts, then`). */
const TRAILING_PUNCTUATION = /[,;:!?)\]}'"]+$|\.+$/u;

/** The workspace paths a prompt mentions with `@`, in order, each once. */
export function findMentions(prompt: string): string[] {
  const paths: string[] = [];
  for (const match of prompt.matchAll(MENTION)) {
    const mentioned = match[2]!.replace(TRAILING_PUNCTUATION, '');
    if (mentioned !== '' && !paths.includes(mentioned)) paths.push(mentioned);
  }
  return paths;
}

/** The `@word` that ends at `cursor`, if the cursor is in one: where it starts (after the `@`) and what is typed. */
export function mentionAtCursor(
  text: string,
  cursor: number,
): { start: number; typed: string } | undefined {
  const before = text.slice(0, cursor);
  const match = /(^|\s)@([^\s@]*)$/u.exec(before);
  if (match === null) return undefined;
  return { start: cursor - match[2]!.length, typed: match[2]! };
}
