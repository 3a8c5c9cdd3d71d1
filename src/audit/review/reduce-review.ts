import { addToTotals, type UsageTotals } from '../../providers/pricing/usage-totals.js';
import type { Price } from '../../providers/pricing/price-table.js';
import type { ModelClient } from '../../providers/types.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import type { Finding } from '../types.js';
import { applyReduce, type ReducedFindings } from './apply-reduce.js';
import { judgeAnswerEnd, type CutAnswerReason } from './judge-answer-end.js';
import { parseReduceAnswer } from './parse-reduce-answer.js';
import { reduceFindingIds } from './reduce-finding-ids.js';
import { REDUCE_BUDGET_CHARS, renderReducePrompt } from './render-reduce-prompt.js';

/** Answer budget of the reduce call: a summary and two id lists. */
const REDUCE_MAX_TOKENS = 4096;

/** Why the reduce answer was not used: the findings keep their deterministic order and there is no summary. */
export interface ReduceFailure {
  reason: CutAnswerReason;
  detail: string;
}

export interface ReduceInput {
  client: ModelClient;
  /** Chunks of the whole audit: a single chunk was already reviewed as a whole. */
  chunkCount: number;
  isStoppedByCost: boolean;
  totals: UsageTotals;
  price: Price | undefined;
  signal?: AbortSignal;
  onNotice?: (text: string) => void;
}

export interface ReduceResult {
  reduced: ReducedFindings;
  reduceFailure: ReduceFailure | null;
  totals: UsageTotals;
  calls: number;
}

/**
 * The reduce step over de-duplicated findings: one call to rank and summarise when there are several
 * chunks and something to rank, shared by `oy audit` and `oy report merge`.
 */
export async function reduceReview(
  deduped: readonly Finding[],
  input: ReduceInput,
): Promise<ReduceResult> {
  let reduced = applyReduce(deduped, null);
  let reduceFailure: ReduceFailure | null = null;
  let totals = input.totals;
  let calls = 0;
  if (input.chunkCount <= 1 || deduped.length === 0 || input.isStoppedByCost)
    return { reduced, reduceFailure, totals, calls };
  const prompt = renderReducePrompt(deduped, REDUCE_BUDGET_CHARS);
  try {
    const result = await input.client.complete(
      {
        system: prompt.system,
        messages: [{ role: 'user', text: createRedactor().redact(prompt.user).text }],
        maxTokens: REDUCE_MAX_TOKENS,
      },
      input.signal ? { signal: input.signal } : {},
    );
    calls++;
    totals = addToTotals(totals, result.usage, input.price);
    // A cut answer may rank a few findings and leave the rest, or hold half a summary: none of it is used.
    const end = judgeAnswerEnd(result.stopReason);
    if (end.isWhole)
      reduced = applyReduce(deduped, parseReduceAnswer(result.text, reduceFindingIds(deduped)));
    else {
      reduceFailure = { reason: end.reason, detail: end.detail };
      input.onNotice?.(
        `the reduce answer was not used, so the report has no summary: ${end.detail}`,
      );
    }
  } catch {
    // The reduce step only ranks and summarises: without it, the deterministic order stands.
  }
  return { reduced, reduceFailure, totals, calls };
}
