const ELLIPSIS = '…';

/**
 * `text` in at most `maxChars` UTF-16 units (`String.length`), ending in `…` when cut; never
 * splits a surrogate pair. At 0 only the ellipsis is left, so a cut is always visible.
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}
