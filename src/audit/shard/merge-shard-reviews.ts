import type { UsageTotals } from '../../providers/pricing/usage-totals.js';
import type { Finding, LedgerEntry } from '../types.js';
import type { ShardInput } from './check-shard-reports.js';

/** Every shard's review put together, as one unsharded review would have left it before the reduce. */
export interface MergedReview {
  verified: Finding[];
  /** In review order, as the unsharded run lists them. */
  unverified: Finding[];
  failedFiles: Map<string, LedgerEntry>;
  totals: UsageTotals;
  calls: number;
  cacheHits: number;
  isStoppedByCost: boolean;
}

/** Null when the shards were offline. The shards are checked (`checkShardReports`) and in order. */
export function mergeShardReviews(inputs: readonly ShardInput[]): MergedReview | null {
  const reviews = inputs.flatMap(({ shard }) => (shard.review === null ? [] : [shard.review]));
  if (reviews.length === 0) return null;
  const order = new Map(inputs[0]?.shard.chunks.map((id, position) => [id, position]));
  const pieces = reviews
    .flatMap((review) => review.byChunk)
    .sort((a, b) => (order.get(a.chunkId) ?? 0) - (order.get(b.chunkId) ?? 0));
  const failedFiles = new Map<string, LedgerEntry>();
  for (const review of reviews)
    for (const entry of review.failedFiles) failedFiles.set(entry.path, entry);
  const sum = (of: (totals: UsageTotals) => number) =>
    reviews.reduce((total, review) => total + of(review.totals), 0);
  return {
    verified: pieces.flatMap((piece) => piece.verified),
    unverified: pieces.flatMap((piece) => piece.unverified),
    failedFiles,
    totals: {
      inputTokens: sum((totals) => totals.inputTokens),
      outputTokens: sum((totals) => totals.outputTokens),
      cacheReadTokens: sum((totals) => totals.cacheReadTokens),
      cacheWriteTokens: sum((totals) => totals.cacheWriteTokens),
      costUsd: reviews.some((review) => review.totals.costUsd === null)
        ? null
        : sum((totals) => totals.costUsd ?? 0),
    },
    calls: reviews.reduce((total, review) => total + review.calls, 0),
    cacheHits: reviews.reduce((total, review) => total + review.cacheHits, 0),
    isStoppedByCost: reviews.some((review) => review.isStoppedByCost),
  };
}
