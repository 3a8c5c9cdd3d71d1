import { afterAll, describe, expect, it } from 'vitest';
import { planChunks } from '../../../src/audit/chunk/plan-chunks.js';
import { createTokenCounter } from '../../../src/audit/tokens/count-tokens.js';
import { countNewChunkIds, measureStability } from './measure-stability.js';
import { makeFile, makeRandomTree } from './random-tree.js';
import { seededRandom } from '../../support/seeded-random.js';

const counter = createTokenCounter();
afterAll(() => counter.free());
const options = {
  chunkTokens: 64_000,
  headroom: 1.3,
  countTokens: (text: string) => counter.count(text),
};

const share = (histogram: Record<number, number>, atMost: number) => {
  const entries = Object.entries(histogram).map(
    ([changed, edits]) => [Number(changed), edits] as const,
  );
  const total = entries.reduce((sum, [, edits]) => sum + edits, 0);
  return (
    entries.filter(([changed]) => changed <= atMost).reduce((sum, [, edits]) => sum + edits, 0) /
    total
  );
};

describe('chunk plan stability', () => {
  // 6 seeded trees of 500 files over 40 directories; 100 edits (size ±1% to ±50%) and
  // 40 additions or removals each. The distribution is recorded, not hoped for: a change
  // to the packing shows up here first.
  const result = measureStability(options, 6, 100, 40);

  it('changes at most 2 chunk ids for 99% of single-file edits, and never more than 4', () => {
    expect(result.editHistogram).toMatchInlineSnapshot(`
      {
        "1": 591,
        "2": 7,
        "4": 1,
      }
    `);
    expect(share(result.editHistogram, 2)).toBeGreaterThanOrEqual(0.99);
    expect(Math.max(...Object.keys(result.editHistogram).map(Number))).toBeLessThanOrEqual(4);
  });

  it('changes at most 2 chunk ids for 95% of added or removed files, and never more than 4', () => {
    expect(result.addRemoveHistogram).toMatchInlineSnapshot(`
      {
        "1": 211,
        "2": 22,
        "3": 7,
      }
    `);
    expect(share(result.addRemoveHistogram, 2)).toBeGreaterThanOrEqual(0.95);
    expect(Math.max(...Object.keys(result.addRemoveHistogram).map(Number))).toBeLessThanOrEqual(4);
  });

  it('fills chunks to well over half the budget on average', () => {
    expect(result.averageFill).toBeGreaterThan(0.65);
    expect(result.averageChunks).toBeGreaterThan(20);
  });

  it('changes exactly one chunk id when a file changes content but not size', () => {
    const random = seededRandom(99);
    const files = makeRandomTree(random);
    for (let i = 0; i < 50; i++) {
      const index = Math.floor(random() * files.length);
      const edited = files.with(index, { ...files[index]!, contentHash: `edited-${i}` });
      expect(countNewChunkIds(files, edited, options)).toBe(1);
    }
  });

  it('changes no chunk id when nothing changes', () => {
    const files = makeRandomTree(seededRandom(100));
    expect(countNewChunkIds(files, [...files].reverse(), options)).toBe(0);
  });

  it('changes every part of a split file, since parts carry the whole file’s content hash', () => {
    const random = seededRandom(101);
    const files = [...makeRandomTree(random, 100, 10), makeFile('src/huge.ts', 150_000, random)];
    const edited = files.with(-1, makeFile('src/huge.ts', 150_500, random, 1));
    const parts = planChunks(edited, options).chunks.flatMap((chunk) =>
      chunk.parts.filter((part) => part.path === 'src/huge.ts'),
    );
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(countNewChunkIds(files, edited, options)).toBeGreaterThanOrEqual(parts.length);
  });
});
