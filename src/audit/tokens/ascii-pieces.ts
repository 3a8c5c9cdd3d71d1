import type { TokenEncoding } from './token-counter.js';

/**
 * The pre-tokenizer's next piece over ASCII text, found by hand: the same piece its pattern
 * (`createPreTokenizer`) finds, about twice as fast as running the Unicode pattern once per
 * piece. It returns -1 wherever a character outside ASCII could change the piece (a letter, a
 * digit, a space or a symbol of another script), and the caller runs the pattern there. Tests
 * compare every piece with the pattern's, on real code and on every short string of the classes.
 */
export type AsciiPieceEnd = (text: string, start: number) => number;

const END = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
/** `\r` and `\n`. */
const BREAK = 4;
/** The other ASCII White_Space: space, tab, vertical tab, form feed. */
const SPACE = 5;
/** Everything else in ASCII: punctuation, symbols and control characters. */
const OTHER = 6;
const NOT_ASCII = 7;

const CLASSES = new Uint8Array(0x10000).fill(NOT_ASCII);
for (let code = 0; code < 0x80; code++) {
  CLASSES[code] =
    code >= 0x41 && code <= 0x5a
      ? UPPER
      : code >= 0x61 && code <= 0x7a
        ? LOWER
        : code >= 0x30 && code <= 0x39
          ? DIGIT
          : code === 0x0a || code === 0x0d
            ? BREAK
            : code === 0x20 || (code >= 0x09 && code <= 0x0c)
              ? SPACE
              : OTHER;
}

function classAt(text: string, index: number): number {
  return index < text.length ? (CLASSES[text.charCodeAt(index)] ?? NOT_ASCII) : END;
}

function isLetter(kind: number): boolean {
  return kind === UPPER || kind === LOWER;
}

const APOSTROPHE = 0x27;
const LONG_S = 0x17f;

/**
 * The end of `'s|'t|'re|'ve|'m|'ll|'d` (any case; `ſ` folds to `s`) at `at`, `at` when there is
 * none there. Only ASCII and `ſ` can match, so nothing else needs the pattern.
 */
function contractionEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== APOSTROPHE) return at;
  const first = text.charCodeAt(at + 1);
  if (first === LONG_S) return at + 2;
  const lower = first | 0x20;
  if (lower === 0x73 || lower === 0x74 || lower === 0x6d || lower === 0x64) return at + 2;
  const second = text.charCodeAt(at + 2) | 0x20;
  if ((lower === 0x72 || lower === 0x76) && second === 0x65) return at + 3;
  if (lower === 0x6c && second === 0x6c) return at + 3;
  return at;
}

/** The end of the run of `kind` from `at`, or -1 when a character outside ASCII ends it. */
function runEnd(text: string, at: number, kind: number): number {
  let index = at;
  let next = classAt(text, index);
  while (next === kind) next = classAt(text, ++index);
  return next === NOT_ASCII ? -1 : index;
}

/**
 * ` ?[^\s\p{L}\p{N}]+` then `[\r\n]*` (`[\r\n/]*` for o200k): its end, undefined where the
 * piece is not that alternative, -1 where a character outside ASCII could change it.
 */
function symbolsEnd(
  text: string,
  start: number,
  kind: number,
  slashes: boolean,
): number | undefined {
  let at = start;
  if (kind === SPACE) {
    if (text.charCodeAt(start) !== 0x20) return undefined;
    const next = classAt(text, start + 1);
    if (next !== OTHER) return next === NOT_ASCII ? -1 : undefined;
    at = start + 1;
  }
  let index = runEnd(text, at, OTHER);
  if (index < 0) return -1;
  for (;;) {
    const code = text.charCodeAt(index);
    if (code === 0x0a || code === 0x0d || (slashes && code === 0x2f)) index++;
    else return index;
  }
}

/**
 * The three space alternatives: `\s*[\r\n]+`, `\s+(?!\S)`, `\s+`. A run of spaces ends after
 * its last break when it has one; otherwise before its last space when a non-space follows.
 */
function spacesEnd(text: string, start: number): number {
  let index = start;
  let lastBreak = -1;
  for (;;) {
    const kind = classAt(text, index);
    if (kind === BREAK) lastBreak = index;
    else if (kind !== SPACE) {
      if (kind === NOT_ASCII) return -1;
      break;
    }
    index++;
  }
  if (lastBreak >= 0) return lastBreak + 1;
  if (index === text.length) return index;
  return index - start >= 2 ? index - 1 : index;
}

/** o200k_base: upper-case letters then lower-case ones, each word with one optional leading symbol. */
function o200kPieceEnd(text: string, start: number): number {
  const kind = classAt(text, start);
  if (kind === NOT_ASCII) return -1;
  if (kind === DIGIT) return digitsEnd(text, start);
  let letters = isLetter(kind) ? start : -1;
  if (kind === SPACE || kind === OTHER) {
    const next = classAt(text, start + 1);
    if (next === NOT_ASCII) return -1;
    if (isLetter(next)) letters = start + 1;
  }
  if (letters >= 0) {
    // `[upper]*[lower]+` when lower-case letters follow the capitals, else `[upper]+[lower]*`.
    const uppers = runEnd(text, letters, UPPER);
    if (uppers < 0) return -1;
    const lowers = runEnd(text, uppers, LOWER);
    if (lowers < 0) return -1;
    return contractionEnd(text, lowers);
  }
  if (kind === SPACE || kind === OTHER) {
    const end = symbolsEnd(text, start, kind, true);
    if (end !== undefined) return end;
  }
  return spacesEnd(text, start);
}

/** cl100k_base: a contraction alone, then any letters with one optional leading symbol. */
function cl100kPieceEnd(text: string, start: number): number {
  const kind = classAt(text, start);
  if (kind === NOT_ASCII) return -1;
  if (kind === DIGIT) return digitsEnd(text, start);
  if (text.charCodeAt(start) === APOSTROPHE) {
    if (classAt(text, start + 1) === NOT_ASCII) return -1;
    const end = contractionEnd(text, start);
    if (end > start) return end;
  }
  let letters = isLetter(kind) ? start : -1;
  if (kind === SPACE || kind === OTHER) {
    const next = classAt(text, start + 1);
    if (next === NOT_ASCII) return -1;
    if (isLetter(next)) letters = start + 1;
  }
  if (letters >= 0) {
    let index = letters;
    let next = classAt(text, index);
    while (isLetter(next)) next = classAt(text, ++index);
    return next === NOT_ASCII ? -1 : index;
  }
  if (kind === SPACE || kind === OTHER) {
    const end = symbolsEnd(text, start, kind, false);
    if (end !== undefined) return end;
  }
  return spacesEnd(text, start);
}

/** `\p{N}{1,3}`: a digit of another script inside the first three would join the piece. */
function digitsEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < start + 3) {
    const kind = classAt(text, index);
    if (kind === NOT_ASCII) return -1;
    if (kind !== DIGIT) break;
    index++;
  }
  return index;
}

export const ASCII_PIECE_END: Readonly<Record<TokenEncoding, AsciiPieceEnd>> = {
  o200k_base: o200kPieceEnd,
  cl100k_base: cl100kPieceEnd,
};
