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
  const inputTokens =
    plan.contentProviderTokens +
    plan.mapCalls * MAP_PROMPT_OVERHEAD_TOKENS +
    plan.reduceCalls * REDUCE_TOKENS_ESTIMATE.input;
  const outputTokens =
    plan.mapCalls * MAP_ANSWER_TOKENS_ESTIMATE + plan.reduceCalls * REDUCE_TOKENS_ESTIMATE.output;
  const usage = { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return { inputTokens, outputTokens, costUsd: price ? costOf(usage, price) : null };
}
