import { createConcurrencyLimit } from '../collect/limit-concurrency.js';
import {
  addToTotals,
  EMPTY_TOTALS,
  type UsageTotals,
} from '../../providers/pricing/usage-totals.js';
import type { ProviderError, ProviderErrorKind } from '../../providers/provider-error.js';
import type { Price } from '../../providers/pricing/price-table.js';
import type { ModelClient, ModelRef } from '../../providers/types.js';
import type { Chunk, SecurityHint } from '../types.js';
import { addUsage } from '../../providers/pricing/usage-totals.js';
import type { BatchAnswer, PlannedMapCall } from './batch/run-map-batch.js';
import { mapCacheKey, type CachedMapResult, type MapCache } from './map-cache.js';
import { MAP_MAX_TOKENS, reviewChunk } from './review-chunk.js';
import type { RawFinding } from './raw-finding.js';
import { renderMapPrompt } from './render-map-prompt.js';
import { halveChunk } from '../chunk/halve-chunk.js';

export interface MapPhaseInput {
  client: ModelClient;
  /** Chunks with the exact text the model sees, in review order (riskiest first). */
  chunks: { chunk: Chunk; text: string }[];
  /** The text of a piece of one of those chunks (a half, when its answer was cut off). */
  renderChunk(chunk: Chunk): string;
  manifest: string;
  hintsFor(chunk: Chunk): SecurityHint[];
  focus: string[];
  delimiter: string;
  concurrency: number;
  /** Chunks of the whole audit when a shard maps only some: one of several is never the whole repository. */
  plannedChunkCount?: number;
  cache: MapCache;
  promptVersionHash: string;
  price: Price | undefined;
  /** Stop launching calls once the running cost reaches this, in USD. */
  maxCostUsd: number | null;
  signal?: AbortSignal;
  /**
   * `--batch`: the first answer of every chunk the cache lacks, fetched at once before any review (one
   * entry per key). Halves of a cut answer and a repair still go online.
   */
  prefetch?: (calls: PlannedMapCall[]) => Promise<ReadonlyMap<string, BatchAnswer>>;
  /** What a prefetched answer costs (the batch price). */
  prefetchPrice?: Price | undefined;
  onChunkDone?: (done: number, total: number, totals: UsageTotals) => void;
  /** Said with `--verbose`: a chunk reviewed in halves, a cache entry that did not verify. */
  onNotice?: (text: string) => void;
}

/**
 * How many times a chunk whose answer was cut off is halved and reviewed again: 2 makes quarters, at
 * most 6 more calls for the chunk, each with the whole output budget for a quarter of the text.
 */
export const MAX_SPLIT_DEPTH = 2;

/** Failures no retry or other chunk can fix: the key, the account, the model name or the request is wrong. */
const FATAL_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'auth',
  'permission',
  'model_not_found',
  'bad_request',
]);

/** One reviewed or failed piece: a planned chunk, or a half or quarter of one whose answer was cut off. */
export type MapOutcome =
  | { chunk: Chunk; status: 'reviewed'; findings: RawFinding[]; isFromCache: boolean }
  | { chunk: Chunk; status: 'failed'; reason: string; detail: string; error?: ProviderError };

export interface MapPhaseResult {
  outcomes: MapOutcome[];
  totals: UsageTotals;
  calls: number;
  cacheHits: number;
  /** Chunks (and halves) reviewed again in halves because their answer did not fit. */
  splits: number;
  isStoppedByCost: boolean;
  /** The first failure that is not transient: the run stops launching calls once it is seen. */
  fatalError: ProviderError | null;
}

/**
 * One map call per chunk, `concurrency` at a time, through the cache; a transient failure never stops the
 * others, a fatal one stops new calls. A chunk whose answer was cut off (or whose prompt was too long)
 * is reviewed again in halves, up to MAX_SPLIT_DEPTH, and each half stands on its own in the outcomes.
 */
export async function runMapPhase(input: MapPhaseInput): Promise<MapPhaseResult> {
  const limit = createConcurrencyLimit(input.concurrency);
  let totals: UsageTotals = { ...EMPTY_TOTALS, costUsd: input.price ? 0 : null };
  let calls = 0;
  let cacheHits = 0;
  let splits = 0;
  let done = 0;
  let isStoppedByCost = false;
  let fatalError: ProviderError | null = null;
  const isSingleCall = (input.plannedChunkCount ?? input.chunks.length) === 1;

  const keyOf = (text: string, isWholeRepository: boolean) =>
    chunkCacheKey(input.client.ref, input.promptVersionHash, text, isWholeRepository);
  const promptOf = (chunk: Chunk, text: string, isWholeRepository: boolean) =>
    renderMapPrompt({
      chunkText: text,
      manifest: input.manifest,
      hints: input.hintsFor(chunk),
      focus: input.focus,
      delimiter: input.delimiter,
      isSingleCall: isWholeRepository,
    });

  // Every planned chunk is looked up in the cache once, first, so a batch holds only the misses.
  const looked = await Promise.all(
    input.chunks.map(async ({ chunk, text }) => {
      const key = keyOf(text, isSingleCall);
      return { chunk, text, key, cached: await input.cache.get(key) };
    }),
  );
  let prefetched: ReadonlyMap<string, BatchAnswer> | null = null;
  if (input.prefetch) {
    const misses = looked.filter((entry) => entry.cached === undefined);
    prefetched =
      misses.length === 0
        ? new Map()
        : await input.prefetch(
            misses.map(({ chunk, text, key }) => ({
              key,
              chunkId: chunk.id,
              prompt: promptOf(chunk, text, isSingleCall),
            })),
          );
  }

  const reviewOne = async (
    chunk: Chunk,
    text: string,
    depth: number,
    first?: { key: string; cached: CachedMapResult | undefined },
  ): Promise<MapOutcome[]> => {
    // A half of the only chunk is no longer the whole repository.
    const isWholeRepository = isSingleCall && depth === 0;
    const key = first?.key ?? keyOf(text, isWholeRepository);
    const cached = first ? first.cached : await input.cache.get(key);
    if (cached) {
      cacheHits++;
      return [
        { chunk, status: 'reviewed', findings: cached.findings as RawFinding[], isFromCache: true },
      ];
    }
    // Only a planned chunk has a batch answer; its halves are reviewed online.
    const answer =
      prefetched !== null && first !== undefined
        ? (prefetched.get(key) ?? {
            type: 'failed' as const,
            reason: 'missing',
            detail: 'the batch held no request for this chunk',
          })
        : undefined;
    if (answer !== undefined && answer.type !== 'succeeded') {
      const detail =
        answer.type === 'failed'
          ? answer.detail
          : answer.type === 'errored'
            ? `the batch request failed: ${answer.errorType}${answer.message === '' ? '' : `: ${answer.message}`}`
            : `the batch request was ${answer.type} before the model answered it`;
      return [
        {
          chunk,
          status: 'failed',
          reason: answer.type === 'failed' ? answer.reason : answer.type,
          detail,
        },
      ];
    }
    const batchResult = answer?.result;
    // A batch answer is already paid for: it is used whatever happened since.
    if (fatalError !== null && batchResult === undefined) {
      return [{ chunk, status: 'failed', reason: 'stopped', detail: fatalError.message }];
    }
    if (
      batchResult === undefined &&
      input.maxCostUsd !== null &&
      totals.costUsd !== null &&
      totals.costUsd >= input.maxCostUsd
    ) {
      isStoppedByCost = true;
      return [
        {
          chunk,
          status: 'failed',
          reason: 'max-cost',
          detail: `--max-cost ${input.maxCostUsd} reached`,
        },
      ];
    }
    const prompt = promptOf(chunk, text, isWholeRepository);
    const review = await reviewChunk(input.client, prompt, input.signal, batchResult);
    if (batchResult !== undefined) {
      calls++;
      totals = addToTotals(totals, batchResult.usage, input.prefetchPrice);
    }
    calls += review.calls;
    totals = addToTotals(totals, review.usage, input.price);
    if (review.status === 'reviewed') {
      await input.cache.set(key, {
        findings: review.findings,
        usage: batchResult ? addUsage(batchResult.usage, review.usage) : review.usage,
        model: input.client.ref.id,
        createdAt: new Date().toISOString(),
      });
      return [{ chunk, status: 'reviewed', findings: review.findings, isFromCache: false }];
    }
    if (review.error && FATAL_KINDS.has(review.error.kind)) fatalError ??= review.error;
    const halves = review.isTooLarge && depth < MAX_SPLIT_DEPTH ? halveChunk(chunk) : null;
    if (halves === null) {
      return [
        {
          chunk,
          status: 'failed',
          reason: review.reason,
          detail: depth === 0 ? review.detail : `${review.detail}, even in ${2 ** depth} pieces`,
          ...(review.error ? { error: review.error } : {}),
        },
      ];
    }
    splits++;
    input.onNotice?.(`${describeChunk(chunk)}: ${review.detail}; reviewing it again in two halves`);
    const outcomes: MapOutcome[] = [];
    for (const half of halves)
      outcomes.push(...(await reviewOne(half, input.renderChunk(half), depth + 1)));
    return outcomes;
  };

  const outcomes = await Promise.all(
    looked.map(({ chunk, text, key, cached }) =>
      limit(async () => {
        const pieces = await reviewOne(chunk, text, 0, { key, cached });
        input.onChunkDone?.(++done, input.chunks.length, totals);
        return pieces;
      }),
    ),
  );
  return {
    outcomes: outcomes.flat(),
    totals,
    calls,
    cacheHits,
    splits,
    isStoppedByCost,
    fatalError,
  };
}

/**
 * The map cache key of one chunk's review: the one function both the map phase and the cost
 * estimate use, so the estimate's cache hits are the review's. `isWholeRepository` is true for
 * the only chunk of a run (at full size), whose prompt differs.
 */
export function chunkCacheKey(
  ref: Pick<ModelRef, 'provider' | 'model'>,
  promptVersionHash: string,
  chunkText: string,
  isWholeRepository: boolean,
): string {
  return mapCacheKey({
    provider: ref.provider,
    model: ref.model,
    params: { maxTokens: MAP_MAX_TOKENS, isSingleCall: isWholeRepository },
    promptVersionHash,
    chunkText,
  });
}

/** A chunk as a notice names it: its first part, and how many more. */
function describeChunk(chunk: Chunk): string {
  const [first] = chunk.parts;
  if (first === undefined) return 'an empty chunk';
  const place = first.isSplit
    ? `${first.path} lines ${first.startLine}-${first.endLine}`
    : first.path;
  const more = chunk.parts.length - 1;
  return more === 0 ? `the chunk of ${place}` : `the chunk of ${place} and ${more} more file(s)`;
}
