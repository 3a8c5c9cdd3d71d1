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

/** The prices a review pays: the map calls' (the batch price with `--batch`) and the reduce call's (always online). */
export interface ReviewPrices {
  map: Price | undefined;
  reduce: Price | undefined;
  isBatch: boolean;
}

/** Tokens and cost a model review of this plan would take, before any call is made; cached work counts at 0. */
export function estimateReviewCost(
  plan: AuditPlan,
  price: Price | undefined,
  prices: ReviewPrices = { map: price, reduce: price, isBatch: false },
  cached: CachedWork = NOTHING_CACHED,
): ReviewEstimate {
  const cachedChunks = plan.chunks.filter((chunk) => cached.chunkIds.has(chunk.id));
  const cachedTokens = cachedChunks.reduce((sum, chunk) => sum + chunk.providerTokens, 0);
  const isReduceCached = plan.reduceCalls > 0 && cached.isReduceCached;
  const map = countTokens(
    Math.max(0, plan.contentProviderTokens - cachedTokens),
    Math.max(0, plan.mapCalls - cachedChunks.length),
    0,
  );
  const reduce = countTokens(0, 0, isReduceCached ? 0 : plan.reduceCalls);
  // The whole scope's cost spread over its content: what each folder's tokens cost, before --riskiest.
  const wholeMap = countTokens(plan.neededProviderTokens, plan.chunksNeeded, 0);
  const wholeReduce = countTokens(0, 0, plan.chunksNeeded > 1 ? 1 : 0);
  const costUsd = priceBoth(map, reduce, prices);
  const wholeCost = priceBoth(wholeMap, wholeReduce, prices);
  return {
    inputTokens: map.inputTokens + reduce.inputTokens,
    outputTokens: map.outputTokens + reduce.outputTokens,
    costUsd,
    cachedChunks: cachedChunks.length,
    isReduceCached,
    usdPerContentToken:
      wholeCost === null || plan.neededProviderTokens === 0
        ? null
        : wholeCost / plan.neededProviderTokens,
    ...(prices.isBatch ? { pricing: 'batch' as const } : {}),
  };
}

type Tokens = ReturnType<typeof countTokens>;

function priceBoth(map: Tokens, reduce: Tokens, prices: ReviewPrices): number | null {
  if (prices.map === undefined || prices.reduce === undefined) return null;
  const usage = (tokens: Tokens) => ({ ...tokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
  return costOf(usage(map), prices.map) + costOf(usage(reduce), prices.reduce);
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
