import { createRequire } from 'node:module';
import type { Tiktoken } from 'tiktoken';
import { ASCII_PIECE_END } from './ascii-pieces.js';
import { countLineTokens, countLineTokensAndTotal, splitLines } from './count-line-tokens.js';
import { createPreTokenizer } from './create-pre-tokenizer.js';
import { PieceMemo } from './piece-memo.js';
import { DEFAULT_TOKEN_ENCODING, type TokenCounter, type TokenEncoding } from './token-counter.js';

export type { TokenCounter, TokenEncoding } from './token-counter.js';

// Code repeats its pieces heavily: about 250,000 distinct pieces in 130 MB of varied code.
// Starting again empty past these bounds keeps the memo under roughly 40 MB.
const MAX_MEMO_ENTRIES = 500_000;
const MAX_MEMO_CHARS = 8_000_000;
// Longer pieces are rare and seldom repeat, so remembering them costs more than it saves.
const MAX_MEMO_PIECE_CHARS = 256;
// tiktoken's merge loop is quadratic in a piece's length (100,000 spaces take 11 s); longer
// pieces are counted in slices so one hostile file cannot stall the audit.
export const LONG_PIECE_CHARS = 4096;
const LONG_PIECE_SLICE_CHARS = 1024;

/**
 * tiktoken's own pattern, given to its encoder instead of the encoding's: every text it is handed
 * is one piece of the encoding's pre-tokenizer already (split here in JavaScript), so it needs no
 * splitting again, and a pattern without look-arounds runs in the regex crate's fast engine.
 */
const WHOLE_PIECE = '(?s:.+)';

type TiktokenConstructor = new (
  ranks: string,
  specialTokens: Record<string, number>,
  pattern: string,
) => Tiktoken;

interface EncodingFile {
  bpe_ranks: string;
  special_tokens: Record<string, number>;
}

/**
 * Loads tiktoken (the small WebAssembly build without embedded encodings, plus this encoding's
 * ranks; most of the cost is building the ranks) and returns a counter that matches
 * `encode_ordinary(text).length` while running several times faster: the text is split with
 * the encoding's own pre-tokenizer in JavaScript and each distinct piece is encoded once, by
 * BPE alone. This module is the only one that touches tiktoken.
 */
export function createTokenCounter(encoding: TokenEncoding = DEFAULT_TOKEN_ENCODING): TokenCounter {
  // Loaded here, not at import time, so commands that never count tokens never pay for it.
  const require = createRequire(import.meta.url);
  const { Tiktoken } = require('tiktoken/lite') as { Tiktoken: TiktokenConstructor };
  const ranks = require(`tiktoken/encoders/${encoding}.json`) as EncodingFile;
  const encoder = new Tiktoken(ranks.bpe_ranks, ranks.special_tokens, WHOLE_PIECE);
  // Sticky: each piece starts where the last one ended, so its place is known without a match array.
  const preTokenizer = createPreTokenizer(encoding, 'y');
  // Most code is ASCII: its pieces are found by hand, the pattern runs only where it is not.
  const asciiPieceEnd = ASCII_PIECE_END[encoding];
  const slicePieces = createPreTokenizer(encoding, 'g');
  const memo = new PieceMemo(MAX_MEMO_ENTRIES, MAX_MEMO_CHARS);

  const encodeLength = (piece: string): number => encoder.encode_ordinary(piece).length;
  // A slice of a long piece may split into several pieces, as tiktoken's own pattern would split it.
  const encodeSlice = (slice: string): number => {
    let tokens = 0;
    for (const match of slice.matchAll(slicePieces)) tokens += encodeLength(match[0]);
    return tokens;
  };

  const countPiece = (text: string, start: number, end: number): number => {
    const length = end - start;
    // Every byte is a token of its own, so a one-character ASCII piece is one token.
    if (length === 1 && text.charCodeAt(start) < 0x80) return 1;
    if (length > MAX_MEMO_PIECE_CHARS) {
      const piece = text.slice(start, end);
      return length > LONG_PIECE_CHARS ? countLongPiece(piece, encodeSlice) : encodeLength(piece);
    }
    return memo.count(text, start, end, encodeLength);
  };

  const count = (text: string): number => {
    let tokens = 0;
    let start = 0;
    while (start < text.length) {
      let end = asciiPieceEnd(text, start);
      if (end < 0) {
        preTokenizer.lastIndex = start;
        // Every code point starts a piece (tested for all of them), so this cannot fail; if a
        // changed pattern ever made it fail, the scan would fail closed rather than miscount.
        if (!preTokenizer.test(text)) throw new Error(`no pre-tokenizer piece at offset ${start}`);
        end = preTokenizer.lastIndex;
      }
      tokens += countPiece(text, start, end);
      start = end;
    }
    return tokens;
  };

  const countLines = (text: string): number[] =>
    countLineTokens(splitLines(text), count, encoding === 'o200k_base');

  const countWithLines = (text: string): { tokens: number; lineTokens: number[] } => {
    const { lineTokens, total } = countLineTokensAndTotal(
      splitLines(text),
      count,
      encoding === 'o200k_base',
    );
    return { tokens: total, lineTokens };
  };

  return {
    encoding,
    count,
    countLines,
    countWithLines,
    free: () => {
      memo.clear();
      encoder.free();
    },
  };
}

/**
 * Counts a very long piece slice by slice in linear time, adding one token per cut as a
 * margin for the merge the cut prevented, so the result stays at or above the exact count.
 */
function countLongPiece(piece: string, encodeLength: (text: string) => number): number {
  let tokens = 0;
  let start = 0;
  while (start < piece.length) {
    let end = Math.min(start + LONG_PIECE_SLICE_CHARS, piece.length);
    // Never cut a surrogate pair: half a character would encode as U+FFFD.
    if (end < piece.length && isHighSurrogate(piece.charCodeAt(end - 1))) end += 1;
    tokens += encodeLength(piece.slice(start, end)) + (start === 0 ? 0 : 1);
    start = end;
  }
  return tokens;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
