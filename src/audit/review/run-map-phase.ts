import { createConcurrencyLimit } from '../collect/limit-concurrency.js';
import {
  addToTotals,
  EMPTY_TOTALS,
  type UsageTotals,
} from '../../providers/pricing/usage-totals.js';
import type { ProviderError, ProviderErrorKind } from '../../providers/provider-error.js';
import type { Price } from '../../providers/pricing/price-table.js';
import type { ModelClient } from '../../providers/types.js';
import type { Chunk, SecurityHint } from '../types.js';
import { mapCacheKey, type MapCache } from './map-cache.js';
import { MAP_MAX_TOKENS, reviewChunk } from './review-chunk.js';
import type { RawFinding } from './raw-finding.js';
import { renderMapPrompt } from './render-map-prompt.js';

export interface MapPhaseInput {
  client: ModelClient;
  /** Chunks with the exact text the model sees, in review order (riskiest first). */
  chunks: { chunk: Chunk; text: string }[];
  manifest: string;
  hintsFor(chunk: Chunk): SecurityHint[];
  focus: string[];
  delimiter: string;
  concurrency: number;
  cache: MapCache;
  promptVersionHash: string;
  price: Price | undefined;
  /** Stop launching calls once the running cost reaches this, in USD. */
  maxCostUsd: number | null;
  signal?: AbortSignal;
  onChunkDone?: (done: number, total: number, totals: UsageTotals) => void;
}

/** Failures no retry or other chunk can fix: the key, the account, the model name or the request is wrong. */
const FATAL_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'auth',
  'permission',
  'model_not_found',
  'bad_request',
]);

export type MapOutcome =
  | { chunk: Chunk; status: 'reviewed'; findings: RawFinding[]; isFromCache: boolean }
  | { chunk: Chunk; status: 'failed'; reason: string; detail: string; error?: ProviderError };

export interface MapPhaseResult {
  outcomes: MapOutcome[];
  totals: UsageTotals;
  calls: number;
  cacheHits: number;
  isStoppedByCost: boolean;
  /** The first failure that is not transient: the run stops launching calls once it is seen. */
  fatalError: ProviderError | null;
}

/** One map call per chunk, `concurrency` at a time, through the cache; a transient failure never stops the others, a fatal one stops new calls. */
export async function runMapPhase(input: MapPhaseInput): Promise<MapPhaseResult> {
  const limit = createConcurrencyLimit(input.concurrency);
  let totals: UsageTotals = { ...EMPTY_TOTALS, costUsd: input.price ? 0 : null };
  let calls = 0;
  let cacheHits = 0;
  let done = 0;
  let isStoppedByCost = false;
  let fatalError: ProviderError | null = null;
  const isSingleCall = input.chunks.length === 1;
  const { provider, model } = input.client.ref;

  const reviewOne = async ({
    chunk,
    text,
  }: {
    chunk: Chunk;
    text: string;
  }): Promise<MapOutcome> => {
    const key = mapCacheKey({
      provider,
      model,
      params: { maxTokens: MAP_MAX_TOKENS, isSingleCall },
      promptVersionHash: input.promptVersionHash,
      chunkText: text,
    });
    const cached = await input.cache.get(key);
    if (cached) {
      cacheHits++;
      return {
        chunk,
        status: 'reviewed',
        findings: cached.findings as RawFinding[],
        isFromCache: true,
      };
    }
    if (fatalError !== null) {
      return { chunk, status: 'failed', reason: 'stopped', detail: fatalError.message };
    }
    if (
      input.maxCostUsd !== null &&
      totals.costUsd !== null &&
      totals.costUsd >= input.maxCostUsd
    ) {
      isStoppedByCost = true;
      return {
        chunk,
        status: 'failed',
        reason: 'max-cost',
        detail: `--max-cost ${input.maxCostUsd} reached`,
      };
    }
    const prompt = renderMapPrompt({
      chunkText: text,
      manifest: input.manifest,
      hints: input.hintsFor(chunk),
      focus: input.focus,
      delimiter: input.delimiter,
      isSingleCall,
    });
    const review = await reviewChunk(input.client, prompt, input.signal);
    calls += review.calls;
    totals = addToTotals(totals, review.usage, input.price);
    if (review.status === 'failed') {
      if (review.error && FATAL_KINDS.has(review.error.kind)) fatalError ??= review.error;
      return {
        chunk,
        status: 'failed',
        reason: review.reason,
        detail: review.detail,
        ...(review.error ? { error: review.error } : {}),
      };
    }
    await input.cache.set(key, {
      findings: review.findings,
      usage: review.usage,
      model: input.client.ref.id,
      createdAt: new Date().toISOString(),
    });
    return { chunk, status: 'reviewed', findings: review.findings, isFromCache: false };
  };

  const outcomes = await Promise.all(
    input.chunks.map((item) =>
      limit(async () => {
        const outcome = await reviewOne(item);
        input.onChunkDone?.(++done, input.chunks.length, totals);
        return outcome;
      }),
    ),
  );
  return { outcomes, totals, calls, cacheHits, isStoppedByCost, fatalError };
}
