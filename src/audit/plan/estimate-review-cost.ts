import { costOf } from '../../providers/pricing/cost-of.js';
import type { Price } from '../../providers/pricing/price-table.js';
import type { AuditPlan, ReviewEstimate } from './audit-plan.js';

/** Provider tokens of a map call beyond its chunk: the brief, the manifest and the hints, at their caps. */
export const MAP_PROMPT_OVERHEAD_TOKENS = 3_500;
/** What a map answer usually costs: a handful of findings in JSON. */
export const MAP_ANSWER_TOKENS_ESTIMATE = 1_500;
/** The reduce call reads every finding in short form and answers with ids and a summary. */
const REDUCE_TOKENS_ESTIMATE = { input: 20_000, output: 1_500 };

/** What the cache already holds: those map calls (and the reduce) are not made, so cost nothing. */
export interface CachedWork {
  chunkIds: ReadonlySet<string>;
  isReduceCached: boolean;
}

const NOTHING_CACHED: CachedWork = { chunkIds: new Set(), isReduceCached: false };

/** Tokens and cost a model review of this plan would take, before any call is made; cached work counts at 0. */
export function estimateReviewCost(
  plan: AuditPlan,
  price: Price | undefined,
  cached: CachedWork = NOTHING_CACHED,
): ReviewEstimate {
  const cachedChunks = plan.chunks.filter((chunk) => cached.chunkIds.has(chunk.id));
  const cachedTokens = cachedChunks.reduce((sum, chunk) => sum + chunk.providerTokens, 0);
  const isReduceCached = plan.reduceCalls > 0 && cached.isReduceCached;
  const { inputTokens, outputTokens } = countTokens(
    Math.max(0, plan.contentProviderTokens - cachedTokens),
    Math.max(0, plan.mapCalls - cachedChunks.length),
    isReduceCached ? 0 : plan.reduceCalls,
  );
  const usage = { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
  // The whole scope's cost spread over its content: what each folder's tokens cost, before --riskiest.
  const whole = countTokens(
    plan.neededProviderTokens,
    plan.chunksNeeded,
    plan.chunksNeeded > 1 ? 1 : 0,
  );
  const wholeCost = price
    ? costOf({ ...whole, cacheReadTokens: 0, cacheWriteTokens: 0 }, price)
    : null;
  return {
    inputTokens,
    outputTokens,
    costUsd: price ? costOf(usage, price) : null,
    cachedChunks: cachedChunks.length,
    isReduceCached,
    usdPerContentToken:
      wholeCost === null || plan.neededProviderTokens === 0
        ? null
        : wholeCost / plan.neededProviderTokens,
  };
}

function countTokens(contentTokens: number, mapCalls: number, reduceCalls: number) {
  return {
    inputTokens:
      contentTokens +
      mapCalls * MAP_PROMPT_OVERHEAD_TOKENS +
      reduceCalls * REDUCE_TOKENS_ESTIMATE.input,
    outputTokens:
      mapCalls * MAP_ANSWER_TOKENS_ESTIMATE + reduceCalls * REDUCE_TOKENS_ESTIMATE.output,
  };
}
