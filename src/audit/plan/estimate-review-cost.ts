import { costOf } from '../../providers/pricing/cost-of.js';
import type { Price } from '../../providers/pricing/price-table.js';
import type { AuditPlan, ReviewEstimate } from './audit-plan.js';

/** Provider tokens of a map call beyond its chunk: the brief, the manifest and the hints, at their caps. */
export const MAP_PROMPT_OVERHEAD_TOKENS = 3_500;
/** What a map answer usually costs: a handful of findings in JSON. */
export const MAP_ANSWER_TOKENS_ESTIMATE = 1_500;
/** The reduce call reads every finding in short form and answers with ids and a summary. */
const REDUCE_TOKENS_ESTIMATE = { input: 20_000, output: 1_500 };

/** Tokens and cost a model review of this plan would take, before any call is made. */
export function estimateReviewCost(plan: AuditPlan, price: Price | undefined): ReviewEstimate {
  const { inputTokens, outputTokens } = countTokens(
    plan.contentProviderTokens,
    plan.mapCalls,
    plan.reduceCalls,
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
