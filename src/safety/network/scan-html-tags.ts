/** One tag met by the scan: its lowercase name, and whether it closes or closes itself. */
export interface HtmlTag {
  name: string;
  isClosing: boolean;
  isSelfClosing: boolean;
}

// Elements whose content is raw text, not markup: skipped whole.
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'iframe']);
// Content of these is never reported as text (code and styles).
const UNREAD = new Set(['script', 'style']);

/**
 * Walks HTML once, left to right, calling `onText` for text and `onTag` for each tag; comments
 * and doctypes are skipped, as is the content of raw-text elements (whose tag is reported).
 * Every step moves forward, so the scan is linear whatever the input.
 */
export function scanHtmlTags(
  html: string,
  onTag: (tag: HtmlTag) => void,
  onText: (text: string) => void = () => {},
): void {
  const length = html.length;
  let at = 0;
  while (at < length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      onText(html.slice(at));
      return;
    }
    if (open > at) onText(html.slice(at, open));
    const next = html.charCodeAt(open + 1);
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      const isComment = html.startsWith('<!--', open);
      const end = isComment ? html.indexOf('-->', open + 4) : html.indexOf('>', open);
      at = end === -1 ? length : end + (isComment ? 3 : 1);
      continue;
    }
    const isClosing = next === 0x2f; /* / */
    const nameStart = open + (isClosing ? 2 : 1);
    let nameEnd = nameStart;
    while (nameEnd < length && isNameCode(html.charCodeAt(nameEnd), nameEnd === nameStart)) {
      nameEnd += 1;
    }
    if (nameEnd === nameStart) {
      onText('<');
      at = open + 1;
      continue;
    }
    const close = html.indexOf('>', nameEnd);
    at = close === -1 ? length : close + 1;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    const isSelfClosing = close > 0 && html.charCodeAt(close - 1) === 0x2f;
    onTag({ name, isClosing, isSelfClosing });
    if (!isClosing && !isSelfClosing && RAW_TEXT.has(name)) {
      const end = indexOfClosingTag(html, name, at);
      if (!UNREAD.has(name)) onText(html.slice(at, end));
      at = end;
    }
  }
}

/** Letters start a tag name; letters, digits and `-` continue it. */
function isNameCode(code: number, isFirst: boolean): boolean {
  const letter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return letter || (!isFirst && ((code >= 0x30 && code <= 0x39) || code === 0x2d));
}

/** Where `</name` starts (any case) at or after `from`, or the end of the text. */
function indexOfClosingTag(html: string, name: string, from: number): number {
  let at = from;
  for (;;) {
    const found = html.indexOf('</', at);
    if (found === -1) return html.length;
    if (html.slice(found + 2, found + 2 + name.length).toLowerCase() === name) return found;
    at = found + 2;
  }
}
