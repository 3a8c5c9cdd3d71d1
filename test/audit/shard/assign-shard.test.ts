import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shardOfChunk, shareOfShard } from '../../../src/audit/shard/assign-shard.js';
import { MAX_SHARDS, parseShardSpec } from '../../../src/audit/shard/shard-spec.js';
import { UsageError } from '../../../src/shared/errors.js';

/** Chunk ids as the chunker makes them: sha256 hex. */
function chunkIds(count: number): string[] {
  return Array.from({ length: count }, () =>
    createHash('sha256').update(randomBytes(16)).digest('hex'),
  );
}

describe('shardOfChunk', () => {
  it('is a pure function of the chunk id: pinned values that must never move between machines or versions', () => {
    const id = createHash('sha256').update('oy').digest('hex');
    // Recomputed from the documented rule: sha256("oy-shard/v1\0" + id), first 6 bytes, mod N, plus 1.
    const digest = createHash('sha256').update(`oy-shard/v1\0${id}`).digest();
    for (const count of [1, 2, 3, 7, 256])
      expect(shardOfChunk(id, count)).toBe((digest.readUIntBE(0, 6) % count) + 1);
    expect([2, 3, 7].map((count) => shardOfChunk(id, count))).toMatchInlineSnapshot(`
      [
        2,
        1,
        3,
      ]
    `);
  });

  it('does not depend on the order or company of the ids', () => {
    const ids = chunkIds(200);
    const forward = ids.map((id) => shardOfChunk(id, 5));
    const backward = [...ids].reverse().map((id) => shardOfChunk(id, 5));
    expect(backward.reverse()).toEqual(forward);
  });

  it('puts every chunk in exactly one shard', () => {
    const ids = chunkIds(500);
    const shares = [1, 2, 3, 4].map((index) => shareOfShard(ids, index, 4));
    expect(shares.flat().sort()).toEqual([...ids].sort());
    expect(shares.map((share) => share.length).reduce((a, b) => a + b)).toBe(500);
  });

  it.each([2, 3, 8, 32])('is balanced over 20,000 fresh chunk ids in %i shards', (count) => {
    const ids = chunkIds(20_000);
    const sizes = Array.from({ length: count }, () => 0);
    for (const id of ids) sizes[shardOfChunk(id, count) - 1]! += 1;
    const expected = ids.length / count;
    // A binomial share's standard deviation is below sqrt(expected); 5 of them is a 1-in-a-million miss.
    const slack = 5 * Math.sqrt(expected);
    for (const size of sizes) expect(Math.abs(size - expected)).toBeLessThan(slack);
    // A chi-square statistic far above its degrees of freedom would mean a skewed hash use.
    const chiSquare = sizes.reduce((sum, size) => sum + (size - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(count - 1 + 10 * Math.sqrt(2 * (count - 1)));
  });

  it('keeps a shard share in the given order', () => {
    const ids = chunkIds(50);
    const share = shareOfShard(ids, 2, 3);
    expect(share).toEqual(ids.filter((id) => share.includes(id)));
  });
});

describe('parseShardSpec', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/3', { index: 2, count: 3 }],
    [`${MAX_SHARDS}/${MAX_SHARDS}`, { index: MAX_SHARDS, count: MAX_SHARDS }],
  ])('reads %s', (text, spec) => {
    expect(parseShardSpec(text)).toEqual(spec);
  });

  it.each([
    '0/3',
    '4/3',
    '1/0',
    '1/257',
    '2',
    '2/',
    '/3',
    '1.5/3',
    '-1/3',
    '1/3/4',
    ' 1/3',
    'a/b',
    '01/3x',
    '',
  ])('refuses %j, naming the flag and what it expects', (text) => {
    expect(() => parseShardSpec(text)).toThrow(UsageError);
    expect(() => parseShardSpec(text)).toThrow(
      `--shard must be K/N with whole numbers 1 ≤ K ≤ N ≤ ${MAX_SHARDS}, got \`${text}\``,
    );
  });
});
