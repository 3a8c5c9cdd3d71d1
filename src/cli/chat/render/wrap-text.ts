import { stripVTControlCharacters } from 'node:util';
import { displayWidth } from '../line-editor/display-width.js';

/** One SGR colour sequence (zero width) or one code point. */
// eslint-disable-next-line no-control-regex -- the colour sequences oy itself added are what is matched
const PIECE = /\u001b\[[\d;]*m|[\s\S]/gu;
// Tabs are drawn as spaces, so widths are known whatever the terminal's tab stops.
const TAB_AS_SPACES = '    ';

export interface WrapOptions {
  /** Written before the first row (a bullet, a quote bar); counts towards the width. */
  firstPrefix?: string;
  /** Written before every later row; defaults to spaces as wide as `firstPrefix`. */
  restPrefix?: string;
}

/** Cells a string takes on screen, colour sequences ignored. */
export function visibleWidth(text: string): number {
  return displayWidth(stripVTControlCharacters(text));
}

/**
 * Word wrap for the terminal: rows of at most `width` cells, broken at spaces; a word longer than a
 * whole row is the only thing cut. Colour sequences (already neutralised text, then coloured) are
 * carried along and take no width. Returns the rows without line breaks.
 */
export function wrapText(text: string, width: number, options: WrapOptions = {}): string[] {
  const firstPrefix = options.firstPrefix ?? '';
  const restPrefix = options.restPrefix ?? ' '.repeat(visibleWidth(firstPrefix));
  const rows: string[] = [];
  let row = firstPrefix;
  let rowWidth = visibleWidth(firstPrefix);
  let hasWord = false;
  const newRow = () => {
    rows.push(row.trimEnd());
    row = restPrefix;
    rowWidth = visibleWidth(restPrefix);
    hasWord = false;
  };
  const tokens = text.replaceAll('\t', TAB_AS_SPACES).split(/( +)/u);
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token === '') continue;
    const tokenWidth = visibleWidth(token);
    if (index % 2 === 1) {
      // Spaces: kept inside a row (and as indentation at its start), dropped at a break.
      if (hasWord && rowWidth + tokenWidth >= width) newRow();
      else if (rowWidth + tokenWidth < width || !hasWord) {
        row += token;
        rowWidth += tokenWidth;
      }
      continue;
    }
    if (rowWidth + tokenWidth > width && hasWord) newRow();
    if (rowWidth + tokenWidth <= width) {
      row += token;
      rowWidth += tokenWidth;
      hasWord = true;
      continue;
    }
    for (const piece of token.match(PIECE) ?? []) {
      const pieceWidth = visibleWidth(piece);
      if (rowWidth + pieceWidth > width && rowWidth > visibleWidth(restPrefix)) newRow();
      row += piece;
      rowWidth += pieceWidth;
      hasWord = true;
    }
  }
  rows.push(row.trimEnd());
  return rows;
}

/** Pads to `width` cells with spaces after the text (colour sequences ignored). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}
