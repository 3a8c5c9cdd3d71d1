import { ProviderError } from '../../providers/provider-error.js';
import { addToTotals, type UsageTotals } from '../../providers/pricing/usage-totals.js';
import type { Price } from '../../providers/pricing/price-table.js';
import type { ModelClient, ModelRef, ModelResult } from '../../providers/types.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import type { Finding, SummaryMissing } from '../types.js';
import { applyReduce, type ReducedFindings } from './apply-reduce.js';
import { judgeAnswerEnd } from './judge-answer-end.js';
import { reduceCacheKey, type MapCache } from './map-cache.js';
import { parseReduceAnswer, type ReduceAnswer } from './parse-reduce-answer.js';
import { reduceFindingIds } from './reduce-finding-ids.js';
import { REDUCE_BUDGET_CHARS, renderReducePrompt } from './render-reduce-prompt.js';
import { truncateText } from './truncate-text.js';

/** Answer budget of the reduce call: a summary and two id lists. */
const REDUCE_MAX_TOKENS = 4096;
/** A provider's error is cut here in the report: one line, not its whole body. */
const MAX_DETAIL_CHARS = 300;

export interface ReduceInput {
  client: ModelClient;
  /** Chunks of the whole audit: a single chunk was already reviewed as a whole. */
  chunkCount: number;
  isStoppedByCost: boolean;
  totals: UsageTotals;
  price: Price | undefined;
  cache: MapCache;
  promptVersionHash: string;
  signal?: AbortSignal;
}

export interface ReduceResult {
  reduced: ReducedFindings;
  /** Why the report has no summary; null when it has one or needs none. */
  summaryMissing: SummaryMissing | null;
  /** Whether the reduce answer came from the cache (no call made for it). */
  isReduceFromCache: boolean;
  totals: UsageTotals;
  calls: number;
}

/**
 * The reduce step over de-duplicated findings, shared by `oy audit` and `oy report merge`: one call
 * to rank and summarise when there are several chunks and something to rank, its whole answer
 * cached. Its failure never fails the run: the findings keep the deterministic order and the
 * summary is missing for a reason the report and stderr give. Only a cancelled run stops here.
 */
export async function reduceReview(
  deduped: readonly Finding[],
  input: ReduceInput,
): Promise<ReduceResult> {
  const result: ReduceResult = {
    reduced: applyReduce(deduped, null),
    summaryMissing: null,
    isReduceFromCache: false,
    totals: input.totals,
    calls: 0,
  };
  if (input.chunkCount <= 1 || deduped.length === 0 || input.isStoppedByCost) return result;
  const request = renderReduceRequest(deduped);
  const key = reduceKey(input.client.ref, input.promptVersionHash, request);
  const cached = await input.cache.getReduce(key);
  if (cached)
    return { ...result, isReduceFromCache: true, reduced: applyReduce(deduped, cached.answer) };
  const outcome = await callReduce(input, request, deduped);
  if (outcome.result) {
    result.calls++;
    result.totals = addToTotals(result.totals, outcome.result.usage, input.price);
  }
  if ('missing' in outcome) return { ...result, summaryMissing: outcome.missing };
  await input.cache.setReduce(key, {
    answer: outcome.answer,
    usage: outcome.result.usage,
    model: input.client.ref.id,
    createdAt: new Date().toISOString(),
  });
  return { ...result, reduced: applyReduce(deduped, outcome.answer) };
}

export interface ReduceRequest {
  system: string;
  /** Redacted, as sent. */
  user: string;
}

export function renderReduceRequest(deduped: readonly Finding[]): ReduceRequest {
  const prompt = renderReducePrompt(deduped, REDUCE_BUDGET_CHARS);
  return { system: prompt.system, user: createRedactor().redact(prompt.user).text };
}

/** The reduce answer's cache key: the exact request, the model and the prompt version. */
export function reduceKey(
  ref: Pick<ModelRef, 'provider' | 'model'>,
  versionHash: string,
  request: ReduceRequest,
): string {
  return reduceCacheKey({
    provider: ref.provider,
    model: ref.model,
    params: { maxTokens: REDUCE_MAX_TOKENS },
    promptVersionHash: versionHash,
    system: request.system,
    user: request.user,
  });
}

type ReduceOutcome =
  | { result: ModelResult; answer: ReduceAnswer }
  | { result: ModelResult | null; missing: SummaryMissing };

async function callReduce(
  input: ReduceInput,
  request: ReduceRequest,
  deduped: readonly Finding[],
): Promise<ReduceOutcome> {
  let result: ModelResult;
  try {
    result = await input.client.complete(
      {
        system: request.system,
        messages: [{ role: 'user', text: request.user }],
        maxTokens: REDUCE_MAX_TOKENS,
      },
      input.signal ? { signal: input.signal } : {},
    );
  } catch (error) {
    if (input.signal?.aborted || (error instanceof ProviderError && error.kind === 'aborted'))
      throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      result: null,
      missing: {
        reason: 'failed',
        detail: `the reduce call failed: ${truncateText(message, MAX_DETAIL_CHARS)}`,
      },
    };
  }
  // A cut answer may rank a few findings and leave the rest, or hold half a summary: none of it is used.
  const end = judgeAnswerEnd(result.stopReason);
  if (!end.isWhole)
    return {
      result,
      missing: { reason: end.reason, detail: `the reduce answer was not used: ${end.detail}` },
    };
  const answer = parseReduceAnswer(result.text, reduceFindingIds(deduped));
  if (answer === null)
    return {
      result,
      missing: {
        reason: 'unreadable',
        detail: 'the reduce answer held no summary, order or merge oy could read',
      },
    };
  return { result, answer };
}
