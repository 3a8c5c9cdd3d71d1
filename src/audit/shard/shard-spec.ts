import { UsageError } from '../../shared/errors.js';

/** `--shard K/N`: this run reviews the K-th of N shares of the chunks (1-based). */
export interface ShardSpec {
  index: number;
  count: number;
}

/** More runners than any CI matrix offers (GitHub Actions allows 256 jobs per matrix). */
export const MAX_SHARDS = 256;

const SHARD_TEXT = /^(\d{1,3})\/(\d{1,3})$/;

/** Reads `K/N`; anything else is a usage error naming the flag and what it expects. */
export function parseShardSpec(text: string, flag = '--shard'): ShardSpec {
  const match = SHARD_TEXT.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index < 1 || count < 1 || index > count || count > MAX_SHARDS) {
    throw new UsageError(
      `${flag} must be K/N with whole numbers 1 ≤ K ≤ N ≤ ${MAX_SHARDS}, got \`${text}\``,
      { hint: `for the second of three runners: ${flag} 2/3` },
    );
  }
  return { index, count };
}

export function formatShard(spec: ShardSpec): string {
  return `${spec.index}/${spec.count}`;
}
