import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ASCII_PIECE_END } from '../../../src/audit/tokens/ascii-pieces.js';
import { createPreTokenizer } from '../../../src/audit/tokens/create-pre-tokenizer.js';
import { TOKEN_ENCODINGS, type TokenEncoding } from '../../../src/audit/tokens/token-counter.js';
import { readCodeCorpus, type CorpusFile } from './read-code-corpus.js';

/**
 * The hand-written ASCII piece finder must give exactly the pattern's pieces wherever it gives
 * one (and hand back -1, never a wrong piece, where it cannot): piece by piece, at every offset.
 */
let corpus: CorpusFile[] = [];
beforeAll(() => {
  corpus = readCodeCorpus();
});

/** Where the pattern's piece starting at `start` ends. */
function patternEnd(sticky: RegExp, text: string, start: number): number {
  sticky.lastIndex = start;
  if (!sticky.test(text)) throw new Error(`no piece at ${start}`);
  return sticky.lastIndex;
}

/** Offsets where the finder disagrees with the pattern; every offset of the text is tried. */
function disagreements(encoding: TokenEncoding, text: string): number[] {
  const sticky = createPreTokenizer(encoding, 'y');
  const find = ASCII_PIECE_END[encoding];
  const wrong: number[] = [];
  for (let start = 0; start < text.length; start++) {
    const end = find(text, start);
    if (end !== -1 && end !== patternEnd(sticky, text, start)) wrong.push(start);
  }
  return wrong;
}

// Each ASCII class and the characters the patterns treat specially, plus non-ASCII neighbours
// (a letter, a digit, a space, a symbol, ſ) that must make the finder step aside.
const CLASS_ALPHABET = ['a', 'Z', '7', ' ', '\t', '\n', '\r', "'", '/', 's', 'L', 'e', ';'];
const NEIGHBOURS = ['é', '٣', '\u00a0', '\u0085', '—', 'ſ', '\u0301', '😀', '\ud800'];

describe.each(TOKEN_ENCODINGS)('ASCII pieces (%s)', (encoding) => {
  it('agree with the pattern at every offset of every corpus file', () => {
    const wrong: string[] = [];
    let offsets = 0;
    for (const file of corpus) {
      offsets += file.text.length;
      const at = disagreements(encoding, file.text);
      if (at.length > 0) wrong.push(`${file.path} at ${at.slice(0, 3).join(', ')}`);
    }
    expect(offsets).toBeGreaterThan(1_000_000);
    expect(wrong).toEqual([]);
  }, 180_000);

  it('agree at every offset of every string of up to 5 characters of the ASCII classes', () => {
    const wrong: string[] = [];
    let strings = 0;
    const visit = (text: string): void => {
      if (text.length > 0) {
        strings++;
        if (disagreements(encoding, text).length > 0) wrong.push(JSON.stringify(text));
      }
      if (text.length < 5) for (const char of CLASS_ALPHABET) visit(text + char);
    };
    visit('');
    expect(strings).toBeGreaterThan(390_000);
    expect(wrong.slice(0, 20)).toEqual([]);
  }, 180_000);

  it('agree, or step aside, beside characters outside ASCII (fresh random strings)', () => {
    const alphabet = [...CLASS_ALPHABET, ...NEIGHBOURS, "'ll", "'RE", "'ſ", 'abc', 'XYZ', '123'];
    const wrong: string[] = [];
    let handed = 0;
    for (let index = 0; index < 20_000; index++) {
      const bytes = randomBytes(1 + (index % 24));
      const text = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
      if (disagreements(encoding, text).length > 0) wrong.push(JSON.stringify(text));
      for (let start = 0; start < text.length; start++)
        if (ASCII_PIECE_END[encoding](text, start) === -1) handed++;
    }
    expect(wrong.slice(0, 20)).toEqual([]);
    // The pattern does get the places the finder cannot judge.
    expect(handed).toBeGreaterThan(10_000);
  }, 180_000);

  it('finds most pieces of ASCII code by itself', () => {
    const find = ASCII_PIECE_END[encoding];
    const text = corpus.map((file) => file.text).join('');
    const sticky = createPreTokenizer(encoding, 'y');
    let pieces = 0;
    let found = 0;
    for (let start = 0; start < text.length && pieces < 200_000; pieces++) {
      const end = find(text, start);
      if (end !== -1) found++;
      start = end === -1 ? patternEnd(sticky, text, start) : end;
    }
    expect(found / pieces).toBeGreaterThan(0.9);
  });
});
