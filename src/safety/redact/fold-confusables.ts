import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';

// The adapter over `unhomoglyph`'s table (Unicode's confusables.txt, character -> prototype). Only
// the entries that fold one UTF-16 unit outside ASCII to one ASCII letter or digit are kept, so a
// folded text keeps every offset: Cyrillic `а` in `pаssword`, Greek `Ρ`, fullwidth `ｔｏｋｅｎ`.
const CONFUSABLES = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<
  string,
  string
>;

// Gaps between folding units shorter than this are bridged, so the class stays short; common
// accented Latin letters (U+00C0-U+017F) fold to nothing and stay out of it.
const BRIDGED_GAP_UNITS = 16;

// By UTF-16 unit: the ASCII code it folds to, or 0; and a class of the ranges that hold them.
const FOLDED = buildFoldTable();
const MAY_FOLD = buildRangeClass(FOLDED);

/** The text with every look-alike of an ASCII letter or digit replaced by it; same length. */
export function foldConfusables(text: string): string {
  // Most files are ASCII: their UTF-8 length is their length, a native count.
  if (Buffer.byteLength(text) === text.length || !MAY_FOLD.test(text)) return text;
  let isFolding = false;
  for (let index = 0; index < text.length && !isFolding; index += 1) {
    isFolding = FOLDED[text.charCodeAt(index)] !== 0;
  }
  if (!isFolding) return text;
  const units = new Uint16Array(text.length);
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    units[index] = FOLDED[unit] || unit;
  }
  return Buffer.from(units.buffer).toString('utf16le');
}

/** A character class of the ranges of folding units, short gaps bridged (a quick first test). */
function buildRangeClass(codes: Uint8Array): RegExp {
  const ranges: Array<[number, number]> = [];
  for (let unit = 0x80; unit < codes.length; unit += 1) {
    if (codes[unit] === 0) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && unit - last[1] < BRIDGED_GAP_UNITS) last[1] = unit;
    else ranges.push([unit, unit]);
  }
  const hex = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;
  return new RegExp(`[${ranges.map(([from, to]) => `${hex(from)}-${hex(to)}`).join('')}]`);
}

function buildFoldTable(): Uint8Array {
  const table = new Map<string, string>();
  for (const [from, to] of Object.entries(CONFUSABLES)) {
    if (from.length === 1 && from.charCodeAt(0) >= 0x80 && /^[A-Za-z0-9]$/.test(to)) {
      table.set(from, to);
    }
  }
  // Fullwidth forms the confusables table leaves out (digits): NFKC folds each to one ASCII unit.
  for (let code = 0xff10; code <= 0xff5a; code += 1) {
    const char = String.fromCharCode(code);
    const folded = char.normalize('NFKC');
    if (!table.has(char) && /^[A-Za-z0-9]$/.test(folded)) table.set(char, folded);
  }
  const codes = new Uint8Array(0x10000);
  for (const [from, to] of table) codes[from.charCodeAt(0)] = to.charCodeAt(0);
  return codes;
}
