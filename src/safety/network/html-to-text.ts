import { scanHtmlTags } from './scan-html-tags.js';

// Tags that start a new line in the text; the rest run inline.
const BLOCK = new Set([
  ...['address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption'],
  ...['figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li'],
  ...['main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tr', 'ul'],
]);
// Never shown: code, styles and page machinery (and text injected there).
const HIDDEN = new Set(['script', 'style', 'noscript', 'iframe', 'template', 'textarea']);
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * Plain text of an HTML page in one linear pass: the fallback when a page is too large or too
 * deeply nested for the Markdown converter, whose cost grows much faster than the page.
 */
export function htmlToText(html: string): string {
  const pieces: string[] = [];
  let hidden = 0;
  scanHtmlTags(
    html,
    (tag) => {
      if (HIDDEN.has(tag.name) && !tag.isSelfClosing) hidden = tag.isClosing ? 0 : 1;
      else if (BLOCK.has(tag.name)) pieces.push('\n');
    },
    (text) => {
      if (hidden === 0) pieces.push(decodeEntities(text));
    },
  );
  return tidyLines(pieces.join(''));
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/giu, (entity, body: string) => {
    const lower = body.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x')
        ? parseInt(lower.slice(2), 16)
        : parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED[lower] ?? entity;
  });
}

/** Spaces collapsed, lines trimmed, at most one blank line in a row. */
function tidyLines(text: string): string {
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[ \t\r\f\v]+/gu, ' ').trim();
    if (line !== '' || (lines.length > 0 && lines.at(-1) !== '')) lines.push(line);
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}
