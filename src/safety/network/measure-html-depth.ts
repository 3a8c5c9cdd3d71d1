import { scanHtmlTags } from './scan-html-tags.js';

// Elements that never hold content, and those whose end tag a parser supplies when the next opens.
const NO_DEPTH = new Set([
  ...['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param'],
  ...['source', 'track', 'wbr', 'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup'],
  ...['thead', 'tbody', 'tfoot', 'colgroup', 'rb', 'rt', 'rp', '!'],
]);

/** Whether HTML nests elements more than `limit` deep (unclosed ones count as still open). */
export function nestsDeeperThan(html: string, limit: number): boolean {
  let depth = 0;
  let isTooDeep = false;
  scanHtmlTags(html, (tag) => {
    if (isTooDeep || NO_DEPTH.has(tag.name) || tag.isSelfClosing) return;
    if (tag.isClosing) depth = Math.max(0, depth - 1);
    else if ((depth += 1) > limit) isTooDeep = true;
  });
  return isTooDeep;
}
