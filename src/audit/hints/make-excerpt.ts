/** Longest excerpt a hint carries, in UTF-16 code units. */
export const MAX_EXCERPT_CHARS = 160;
// On a line too long to quote whole, the excerpt starts this many characters before the match.
const EXCERPT_LEAD_CHARS = 40;
// Characters that would hide or reorder text where the excerpt is shown: C0 controls except tab,
// DEL, C1 controls, zero-width and bidirectional formatting characters, and the byte-order mark.
const INVISIBLE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * A short quote of the line around a match: the trimmed line when it fits, otherwise a window that
 * holds the match. Invisible and control characters are written as `\uXXXX` so the excerpt cannot
 * smuggle them into a report or a prompt.
 */
export function makeExcerpt(
  text: string,
  lineStart: number,
  lineEnd: number,
  matchOffset: number,
): string {
  let start = lineStart;
  let end = lineEnd;
  while (start < end && isBlank(text.charCodeAt(start))) start += 1;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end -= 1;
  if (end - start > MAX_EXCERPT_CHARS) {
    start = Math.min(Math.max(start, matchOffset - EXCERPT_LEAD_CHARS), end - MAX_EXCERPT_CHARS);
    end = start + MAX_EXCERPT_CHARS;
    if (isLowSurrogate(text.charCodeAt(start))) start += 1;
    if (isLowSurrogate(text.charCodeAt(end))) end -= 1;
    while (start < end && isBlank(text.charCodeAt(start))) start += 1;
    while (end > start && isBlank(text.charCodeAt(end - 1))) end -= 1;
  }
  // Only ASCII blanks are trimmed: String#trim would also drop a leading U+FEFF the hint is about.
  const excerpt = text.slice(start, end);
  const escaped = excerpt.replace(INVISIBLE_CHARACTERS, escapeCharacter);
  return escaped.length <= MAX_EXCERPT_CHARS ? escaped : cutEscaped(escaped);
}

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

// Cut at the limit without splitting a `\uXXXX` escape or a surrogate pair.
function cutEscaped(escaped: string): string {
  let end = MAX_EXCERPT_CHARS;
  const escapeStart = escaped.lastIndexOf('\\u', end);
  if (escapeStart !== -1 && escapeStart > end - 6) end = escapeStart;
  if (isLowSurrogate(escaped.charCodeAt(end))) end -= 1;
  return escaped.slice(0, end);
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13 || code === 10;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
