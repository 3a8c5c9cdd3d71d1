import { createHash } from 'node:crypto';

/** Bound into the hash, so the partition is oy's own and can change only with this tag. */
const PARTITION_DOMAIN = 'oy-shard/v1\0';
/** 48 bits of the hash: an exact integer in a double, and a modulo bias below 2^-40 for N ≤ 256. */
const HASH_BYTES = 6;

/**
 * The shard (1-based) that reviews a chunk: a hash of its content-addressed id, so every machine
 * agrees whatever the chunk order, the paths' locale or the number of cores.
 */
export function shardOfChunk(chunkId: string, count: number): number {
  const digest = createHash('sha256').update(PARTITION_DOMAIN).update(chunkId).digest();
  return (digest.readUIntBE(0, HASH_BYTES) % count) + 1;
}

/** The ids of `chunkIds` that shard `index` of `count` reviews, in their given order. */
export function shareOfShard(chunkIds: readonly string[], index: number, count: number): string[] {
  return chunkIds.filter((id) => shardOfChunk(id, count) === index);
}
