import { ProviderError } from '../../providers/provider-error.js';
import { OyError, EXIT } from '../../shared/errors.js';
import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { batchPriceFor } from '../../providers/pricing/batch-price.js';
import { runMapBatch, type MapBatch, type MapBatchOptions } from './batch/run-map-batch.js';
import { addToTotals, type UsageTotals } from '../../providers/pricing/usage-totals.js';
import type { ModelResult, ModelClient, ModelRef } from '../../providers/types.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import { orderChunksByRisk } from '../chunk/order-chunks-by-risk.js';
import type { PreparedAudit } from '../prepare-audit.js';
import type { Chunk, Finding, LedgerEntry, SecurityHint, SummaryMissing } from '../types.js';
import { applyReduce } from './apply-reduce.js';
import { renderPart } from '../chunk/render-part.js';
import { createDelimiter } from './create-delimiter.js';
import { judgeAnswerEnd } from './judge-answer-end.js';
import { dedupeFindings } from './dedupe-findings.js';
import { CacheSeal } from '../cache-seal/cache-seal.js';
import { MapCache, reduceCacheKey } from './map-cache.js';
import { parseReduceAnswer, type ReduceAnswer } from './parse-reduce-answer.js';
import { reduceFindingIds } from './reduce-finding-ids.js';
import { renderChunks } from './render-chunks.js';
import { REDUCE_BUDGET_CHARS, renderReducePrompt } from './render-reduce-prompt.js';
import { renderRepositoryManifest } from './render-repository-manifest.js';
import { promptVersionHash } from './render-map-prompt.js';
import { chunkCacheKey, runMapPhase, type MapOutcome } from './run-map-phase.js';
import type { RawFinding } from './raw-finding.js';
import { truncateText } from './truncate-text.js';
import { verifyFindings, type LineRange, type UnverifiedFinding } from './verify-findings.js';

/** Answer budget of the reduce call: a summary and two id lists. */
const REDUCE_MAX_TOKENS = 4096;
/** A provider's error is cut here in the report: one line, not its whole body. */
const MAX_DETAIL_CHARS = 300;

export interface ModelReviewOptions {
  client: ModelClient;
  cacheDir: string | null;
  /** The user's state key, which map cache entries are sealed under (a key derived from it). */
  stateKey: Uint8Array | undefined;
  concurrency: number;
  maxCostUsd: number | null;
  focus: string[];
  maxFileBytes: number;
  signal?: AbortSignal;
  /** `--batch`: the map calls go out as one batch through this client; the reduce call stays online. */
  batch?: Omit<MapBatchOptions, 'signal' | 'onNotice'>;
  onProgress?: (done: number, total: number, totals: UsageTotals) => void;
  /** What `--verbose` says: chunks reviewed in halves, cache entries that did not verify, a cut reduce answer. */
  onNotice?: (text: string) => void;
}

export interface ModelReview {
  findings: Finding[];
  unverified: UnverifiedFinding[];
  summary: string | null;
  /** Set when several chunks were reviewed and findings made but the summary is missing, and why. */
  summaryMissing: SummaryMissing | null;
  /** Ledger entries of files whose chunk could not be reviewed (replacing `reviewed`). */
  failedFiles: Map<string, LedgerEntry>;
  totals: UsageTotals;
  calls: number;
  cacheHits: number;
  /** Whether the reduce answer came from the cache (no call made for it). */
  isReduceFromCache: boolean;
  isStoppedByCost: boolean;
  promptVersionHash: string;
}

/** What the cache already holds for a review of this plan: those chunks (and the reduce) cost $0. */
export interface CachedReview {
  chunkIds: Set<string>;
  isReduceCached: boolean;
}

/** Map every chunk (riskiest first), verify the findings against the source, de-duplicate, then one reduce call. */
export async function runModelReview(
  prepared: PreparedAudit,
  options: ModelReviewOptions,
): Promise<ModelReview> {
  const { chunks } = prepared.chunkPlan;
  const review = await renderReview(prepared, options.maxFileBytes);
  const { redactedTexts, failedFiles } = review;
  const hintsByPath = groupHints(prepared.files.flatMap((file) => file.hints));
  const delimiter = createDelimiter(review.textById.values());
  const versionHash = promptVersionHash();
  const facts = modelFactsFor(options.client.ref);
  const price = facts.price;
  const batchOptions = options.batch;
  const held: { batch?: MapBatch } = {};
  const cache = openCache(options);
  const map = await runMapPhase({
    client: options.client,
    chunks: review.ordered,
    manifest: renderRepositoryManifest(
      prepared.files.map((file) => ({ path: file.path, lineCount: file.lineCount })),
    ),
    renderChunk: (chunk) =>
      chunk.parts.map((part) => renderPart(part, redactedTexts.get(part.path) ?? '')).join(''),
    hintsFor: (chunk) =>
      chunk.parts.flatMap((part) =>
        hintsInRange(hintsByPath.get(part.path) ?? [], part.startLine, part.endLine),
      ),
    focus: options.focus,
    delimiter,
    concurrency: options.concurrency,
    cache,
    promptVersionHash: versionHash,
    price,
    maxCostUsd: options.maxCostUsd,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onChunkDone: options.onProgress } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    ...(batchOptions
      ? {
          prefetch: async (calls) => {
            held.batch = await runMapBatch(calls, {
              ...batchOptions,
              ...(options.signal ? { signal: options.signal } : {}),
              ...(options.onNotice ? { onNotice: options.onNotice } : {}),
            });
            return held.batch.answers;
          },
          prefetchPrice: batchPriceFor(facts),
        }
      : {}),
  });
  // Every batch answer is in the cache now (or failed on its own), so the batch's record can go.
  await held.batch?.settle();

  throwIfDead(map.outcomes, map.fatalError);
  for (const outcome of map.outcomes)
    if (outcome.status === 'failed')
      markFailed(failedFiles, outcome.chunk, outcome.reason, outcome.detail);
  const { deduped, unverified } = verifyOutcomes(map.outcomes, redactedTexts);

  let totals = map.totals;
  let calls = map.calls;
  let reduced = applyReduce(deduped, null);
  let summaryMissing: SummaryMissing | null = null;
  let isReduceFromCache = false;
  // A single chunk was already reviewed as a whole; several need one call to rank and summarise.
  if (chunks.length > 1 && deduped.length > 0 && !map.isStoppedByCost) {
    const request = renderReduceRequest(deduped);
    const key = reduceKey(options.client.ref, versionHash, request);
    const cached = await cache.getReduce(key);
    if (cached) {
      isReduceFromCache = true;
      reduced = applyReduce(deduped, cached.answer);
    } else {
      const outcome = await callReduce(options, request, deduped);
      if (outcome.result) {
        calls++;
        totals = addToTotals(totals, outcome.result.usage, price);
      }
      if ('answer' in outcome) {
        reduced = applyReduce(deduped, outcome.answer);
        await cache.setReduce(key, {
          answer: outcome.answer,
          usage: outcome.result.usage,
          model: options.client.ref.id,
          createdAt: new Date().toISOString(),
        });
      } else summaryMissing = outcome.missing;
    }
  }
  return {
    findings: reduced.findings,
    unverified,
    summary: reduced.summary,
    summaryMissing,
    failedFiles,
    totals,
    calls,
    cacheHits: map.cacheHits,
    isReduceFromCache,
    isStoppedByCost: map.isStoppedByCost,
    promptVersionHash: versionHash,
  };
}

/**
 * Which chunks of this plan (and whether its reduce) the cache already holds, looked up with the
 * review's own keys (`chunkCacheKey`, `reduceKey`) and without marking any entry as used: what
 * `--dry-run` and `--max-cost` count at $0. The reduce is looked up only when every chunk is cached,
 * since its input is the findings of all of them.
 */
export async function findCachedReview(
  prepared: PreparedAudit,
  options: Pick<ModelReviewOptions, 'cacheDir' | 'stateKey' | 'maxFileBytes'> & {
    ref: ModelRef;
  },
): Promise<CachedReview> {
  const none: CachedReview = { chunkIds: new Set(), isReduceCached: false };
  if (options.cacheDir === null || prepared.chunkPlan.chunks.length === 0) return none;
  const review = await renderReview(prepared, options.maxFileBytes);
  const cache = openCache({ ...options, isReadOnly: true });
  const versionHash = promptVersionHash();
  const isSingleCall = review.ordered.length === 1;
  const outcomes: MapOutcome[] = [];
  for (const { chunk, text } of review.ordered) {
    const cached = await cache.get(chunkCacheKey(options.ref, versionHash, text, isSingleCall));
    if (cached)
      outcomes.push({
        chunk,
        status: 'reviewed',
        findings: cached.findings as RawFinding[],
        isFromCache: true,
      });
  }
  const chunkIds = new Set(outcomes.map((outcome) => outcome.chunk.id));
  const isAllCached =
    review.failedFiles.size === 0 && outcomes.length === prepared.chunkPlan.chunks.length;
  if (!isAllCached || prepared.chunkPlan.chunks.length < 2)
    return { chunkIds, isReduceCached: false };
  const { deduped } = verifyOutcomes(outcomes, review.redactedTexts);
  // No findings, no reduce call: nothing to pay for.
  if (deduped.length === 0) return { chunkIds, isReduceCached: true };
  const key = reduceKey(options.ref, versionHash, renderReduceRequest(deduped));
  return { chunkIds, isReduceCached: (await cache.getReduce(key)) !== undefined };
}

interface RenderedReview {
  /** Chunks with the exact text the model sees, riskiest first. */
  ordered: { chunk: Chunk; text: string }[];
  textById: Map<string, string>;
  redactedTexts: ReadonlyMap<string, string>;
  /** Files whose chunk could not be rendered (changed or vanished since the scan). */
  failedFiles: Map<string, LedgerEntry>;
}

// Each file is numbered on its own, so the map cache keys of other chunks survive a new secret.
async function renderReview(
  prepared: PreparedAudit,
  maxFileBytes: number,
): Promise<RenderedReview> {
  const { chunks } = prepared.chunkPlan;
  const { rendered, redactedTexts } = await renderChunks(chunks, {
    candidates: new Map(prepared.candidates.map((candidate) => [candidate.path, candidate])),
    sourceHashes: new Map(prepared.files.map((file) => [file.path, file.sourceHash])),
    createRedactor: () => createRedactor(),
    maxFileBytes,
  });
  const textById = new Map<string, string>();
  const failedFiles = new Map<string, LedgerEntry>();
  for (const item of rendered) {
    if ('text' in item) textById.set(item.chunk.id, item.text);
    else
      markFailed(
        failedFiles,
        item.chunk,
        item.failure.reason,
        `${item.failure.path} changed or vanished during the run`,
      );
  }
  const ordered = orderChunksByRisk(chunks).flatMap((chunk) => {
    const text = textById.get(chunk.id);
    return text === undefined ? [] : [{ chunk, text }];
  });
  return { ordered, textById, redactedTexts, failedFiles };
}

function openCache(
  options: Pick<ModelReviewOptions, 'cacheDir' | 'stateKey' | 'onNotice'> & {
    isReadOnly?: boolean;
  },
): MapCache {
  return MapCache.open(options.cacheDir, {
    seal: CacheSeal.derive(options.stateKey, 'map-cache'),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    ...(options.isReadOnly ? { isReadOnly: true } : {}),
  });
}

/** The reviewed outcomes' findings, checked against the source, then de-duplicated. */
function verifyOutcomes(
  outcomes: readonly MapOutcome[],
  redactedTexts: ReadonlyMap<string, string>,
): { deduped: Finding[]; unverified: UnverifiedFinding[] } {
  const reviewedRanges = new Map<string, LineRange[]>();
  const rawFindings: RawFinding[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'failed') continue;
    for (const part of outcome.chunk.parts) {
      reviewedRanges.set(part.path, [
        ...(reviewedRanges.get(part.path) ?? []),
        { startLine: part.startLine, endLine: part.endLine },
      ]);
    }
    rawFindings.push(...outcome.findings);
  }
  const { verified, unverified } = verifyFindings(rawFindings, redactedTexts, reviewedRanges);
  return { deduped: dedupeFindings(verified), unverified };
}

interface ReduceRequest {
  system: string;
  /** Redacted, as sent. */
  user: string;
}

function renderReduceRequest(deduped: readonly Finding[]): ReduceRequest {
  const prompt = renderReducePrompt(deduped, REDUCE_BUDGET_CHARS);
  return { system: prompt.system, user: createRedactor().redact(prompt.user).text };
}

function reduceKey(
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

/**
 * The reduce call, whose failure never fails the run: the findings keep the deterministic order, and the
 * summary is missing for a reason the report and stderr give. Only a cancelled run stops here.
 */
async function callReduce(
  options: ModelReviewOptions,
  request: ReduceRequest,
  deduped: readonly Finding[],
): Promise<ReduceOutcome> {
  let result: ModelResult;
  try {
    result = await options.client.complete(
      {
        system: request.system,
        messages: [{ role: 'user', text: request.user }],
        maxTokens: REDUCE_MAX_TOKENS,
      },
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    if (options.signal?.aborted || (error instanceof ProviderError && error.kind === 'aborted'))
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

/**
 * A provider that refuses the key, the account, the model or the request fails the run, and so does a
 * review in which no chunk was reviewed, or in which no call reached the provider (chunks served from
 * the cache cannot stand in for an endpoint that is gone): none is a partial result `--allow-partial`
 * could accept.
 */
function throwIfDead(outcomes: readonly MapOutcome[], fatalError: ProviderError | null): void {
  if (fatalError !== null) throw fatalError;
  const failed = outcomes.flatMap((outcome) => (outcome.status === 'failed' ? [outcome] : []));
  const first = failed[0];
  if (first === undefined) return;
  const isNoneReviewed = failed.length === outcomes.length;
  const isUnreachable =
    !outcomes.some((outcome) => outcome.status === 'reviewed' && !outcome.isFromCache) &&
    failed.every((outcome) => outcome.error?.kind === 'connection');
  if (!isNoneReviewed && !isUnreachable) return;
  const reason = first.error?.message ?? first.detail;
  throw new OyError(
    isNoneReviewed
      ? `no chunk could be reviewed: ${reason}`
      : `the provider could not be reached for any of the ${failed.length} chunk(s) not in the cache: ${reason}`,
    EXIT.runtime,
    { hint: first.error?.hint ?? 'run again with --verbose, or check the model with `oy doctor`' },
  );
}

function markFailed(
  failed: Map<string, LedgerEntry>,
  chunk: Chunk,
  reason: string,
  detail: string,
): void {
  for (const part of chunk.parts)
    failed.set(part.path, { path: part.path, status: 'failed', reason, detail });
}

function groupHints(hints: SecurityHint[]): Map<string, SecurityHint[]> {
  const byPath = new Map<string, SecurityHint[]>();
  for (const hint of hints) {
    const list = byPath.get(hint.path);
    if (list) list.push(hint);
    else byPath.set(hint.path, [hint]);
  }
  return byPath;
}

function hintsInRange(hints: SecurityHint[], startLine: number, endLine: number): SecurityHint[] {
  return hints.filter((hint) => hint.line >= startLine && hint.line <= endLine);
}
