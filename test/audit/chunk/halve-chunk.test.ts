import { describe, expect, it } from 'vitest';
import { chunkId } from '../../../src/audit/chunk/chunk-id.js';
import { halveChunk } from '../../../src/audit/chunk/halve-chunk.js';
import { SPLIT_OVERLAP_LINES } from '../../../src/audit/chunk/split-file.js';
import type { Chunk, ChunkPart } from '../../../src/audit/types.js';

function part(path: string, tokens: number, startLine = 1, endLine = 10): ChunkPart {
  return { path, startLine, endLine, isSplit: false, tokens, contentHash: `hash-${path}` };
}

function chunkOf(parts: ChunkPart[]): Chunk {
  return {
    id: chunkId(parts),
    parts,
    tokens: parts.reduce((sum, item) => sum + item.tokens, 0),
    riskScore: 7,
  };
}

describe('halveChunk', () => {
  it('splits parts where half the tokens are reached, one part at least on each side', () => {
    const chunk = chunkOf([part('a', 100), part('b', 100), part('c', 100), part('d', 100)]);
    const [first, second] = halveChunk(chunk)!;
    expect(first.parts.map((item) => item.path)).toEqual(['a', 'b']);
    expect(second.parts.map((item) => item.path)).toEqual(['c', 'd']);
    expect(first.tokens + second.tokens).toBe(chunk.tokens);
    expect(first.id).toBe(chunkId(first.parts));
    expect(first.riskScore).toBe(7);
  });

  it('keeps a large first part alone rather than leaving a half empty', () => {
    const [first, second] = halveChunk(chunkOf([part('big', 900), part('small', 10)]))!;
    expect(first.parts.map((item) => item.path)).toEqual(['big']);
    expect(second.parts.map((item) => item.path)).toEqual(['small']);
    const [left, right] = halveChunk(chunkOf([part('small', 10), part('big', 900)]))!;
    expect(left.parts.map((item) => item.path)).toEqual(['small']);
    expect(right.parts.map((item) => item.path)).toEqual(['big']);
  });

  it('splits one part by lines, the second half repeating the overlap, both labelled with their lines', () => {
    const [first, second] = halveChunk(chunkOf([part('f', 420, 1, 42)]))!;
    expect(first.parts).toEqual([
      expect.objectContaining({ startLine: 1, endLine: 21, isSplit: true }),
    ]);
    expect(second.parts).toEqual([
      expect.objectContaining({ startLine: 22 - SPLIT_OVERLAP_LINES, endLine: 42, isSplit: true }),
    ]);
    expect(first.tokens).toBe(210);
  });

  it('keeps the overlap smaller than a half, so a short part still shrinks', () => {
    const [first, second] = halveChunk(chunkOf([part('f', 30, 5, 7)]))!;
    expect(first.parts[0]).toMatchObject({ startLine: 5, endLine: 6 });
    expect(second.parts[0]).toMatchObject({ startLine: 6, endLine: 7 });
    const [a, b] = halveChunk(chunkOf([part('g', 20, 9, 10)]))!;
    expect(a.parts[0]).toMatchObject({ startLine: 9, endLine: 9 });
    expect(b.parts[0]).toMatchObject({ startLine: 10, endLine: 10 });
  });

  it('cannot halve a single line', () => {
    expect(halveChunk(chunkOf([part('one', 50, 3, 3)]))).toBeNull();
  });
});
