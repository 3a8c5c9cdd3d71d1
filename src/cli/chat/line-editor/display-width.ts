import { showControlCharacter } from '../../../shared/terminal/neutralize-control.js';

// Ranges of code points a terminal draws two cells wide (CJK, Hangul, full-width forms, most emoji).
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

// Combining marks, zero-width joiners and variation selectors take no cell of their own.
const ZERO_WIDTH_RANGES: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x200b, 0x200f],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
];

// A tab is drawn as spaces so the editor knows where the cursor is; terminal tab stops depend on the column.
const TAB_AS_SPACES = '    ';

/** How one code point of the input is drawn: control characters as oy shows them everywhere (`^X`, `<U+202E>`), a tab as spaces. */
export function visibleForm(char: string): { text: string; width: number } {
  if (char === '\t') return { text: TAB_AS_SPACES, width: TAB_AS_SPACES.length };
  const control = showControlCharacter(char);
  if (control !== undefined) return { text: control, width: control.length };
  return { text: char, width: codePointWidth(char.codePointAt(0) ?? 0) };
}

/** Terminal cells a plain string (no escape sequences) takes. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += visibleForm(char).width;
  return width;
}

function codePointWidth(code: number): number {
  if (inRanges(code, ZERO_WIDTH_RANGES)) return 0;
  return inRanges(code, WIDE_RANGES) ? 2 : 1;
}

function inRanges(code: number, ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([low, high]) => code >= low && code <= high);
}
