import { describe, expect, it } from 'vitest';
import { PieceMemo, pieceHash } from '../../../src/audit/tokens/piece-memo.js';
import { seededRandom } from '../../support/seeded-random.js';

// A stand-in for tiktoken: any function of the piece shows whether the memo returns the count
// of the right piece, and counting its calls shows what came from memory.
function fakeEncoder(): { encode: (piece: string) => number; calls: () => number } {
  let calls = 0;
  return {
    encode: (piece) => {
      calls++;
      let value = piece.length;
      for (const char of piece) value = (value * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
      return value;
    },
    calls: () => calls,
  };
}

/** Distinct pieces of awkward characters, laid out in one text as the counter sees them. */
function piecesIn(count: number, seed: number): { text: string; spans: [number, number][] } {
  const random = seededRandom(seed);
  const alphabet = ['a', 'Z', ' ', '\n', '_', 'é', 'ſ', '\u{1F600}', '\uD800', '0', '\u0000'];
  const seen = new Set<string>();
  let text = '';
  const spans: [number, number][] = [];
  while (spans.length < count) {
    let piece = '';
    const length = 1 + Math.floor(random() * 12);
    for (let index = 0; index < length; index++) {
      piece += alphabet[Math.floor(random() * alphabet.length)];
    }
    if (seen.has(piece)) continue;
    seen.add(piece);
    spans.push([text.length, text.length + piece.length]);
    text += piece;
  }
  return { text, spans };
}

describe('PieceMemo', () => {
  it('gives each piece its own count, and the second time from memory, past many doublings', () => {
    const { text, spans } = piecesIn(40_000, 7);
    const encoder = fakeEncoder();
    const memo = new PieceMemo(1_000_000, 10_000_000);
    const first = spans.map(([start, end]) => memo.count(text, start, end, encoder.encode));
    expect(encoder.calls()).toBe(40_000);
    expect(memo.size).toBe(40_000);
    // The same pieces in another text, at other places.
    const shifted = `xyz${text}`;
    const second = spans.map(([start, end]) =>
      memo.count(shifted, start + 3, end + 3, encoder.encode),
    );
    expect(second).toEqual(first);
    expect(encoder.calls()).toBe(40_000);
    expect(first).toEqual(
      spans.map(([start, end]) => fakeEncoder().encode(text.slice(start, end))),
    );
  });

  it('stays exact when its bounds make it start again empty', () => {
    const { text, spans } = piecesIn(5_000, 11);
    const exact = spans.map(([start, end]) => fakeEncoder().encode(text.slice(start, end)));
    for (const [maxEntries, maxChars] of [
      [100, 1_000_000],
      [1_000_000, 500],
      [1, 1],
    ] as const) {
      const memo = new PieceMemo(maxEntries, maxChars);
      const encoder = fakeEncoder();
      for (let round = 0; round < 3; round++) {
        const counts = spans.map(([start, end]) => memo.count(text, start, end, encoder.encode));
        expect(counts).toEqual(exact);
        expect(memo.size).toBeLessThanOrEqual(maxEntries);
      }
    }
  });

  it('tells apart pieces that share a hash', () => {
    // Search for two different pieces with the same 32-bit hash, then count both.
    const hashOf = (piece: string): number => pieceHash(piece, 0, piece.length);
    const byHash = new Map<number, string>();
    let pair: [string, string] | undefined;
    const random = seededRandom(3);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
    while (pair === undefined) {
      let piece = '';
      for (let index = 0; index < 8; index++) piece += alphabet[Math.floor(random() * 64)];
      const other = byHash.get(hashOf(piece));
      if (other !== undefined && other !== piece) pair = [other, piece];
      else byHash.set(hashOf(piece), piece);
    }
    const memo = new PieceMemo(1_000, 1_000);
    const encoder = fakeEncoder();
    const text = pair.join('');
    const spans: [number, number][] = [
      [0, pair[0].length],
      [pair[0].length, text.length],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [start, end] of spans) {
        expect(memo.count(text, start, end, encoder.encode)).toBe(
          fakeEncoder().encode(text.slice(start, end)),
        );
      }
    }
    expect(encoder.calls()).toBe(2);
  });
});
