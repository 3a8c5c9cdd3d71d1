import { ProviderError } from '../../providers/provider-error.js';
import { OyError, EXIT } from '../../shared/errors.js';
import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { batchPriceFor } from '../../providers/pricing/batch-price.js';
import { runMapBatch, type MapBatch, type MapBatchOptions } from './batch/run-map-batch.js';
import type { UsageTotals } from '../../providers/pricing/usage-totals.js';
import type { ModelClient, ModelRef } from '../../providers/types.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import { orderChunksByRisk } from '../chunk/order-chunks-by-risk.js';
import type { PreparedAudit } from '../prepare-audit.js';
import type { Chunk, Finding, LedgerEntry, SecurityHint, SummaryMissing } from '../types.js';
import { renderPart } from '../chunk/render-part.js';
import { createDelimiter } from './create-delimiter.js';
import { dedupeFindings } from './dedupe-findings.js';
import { CacheSeal } from '../cache-seal/cache-seal.js';
import { MapCache } from './map-cache.js';
import { reduceKey, reduceReview, renderReduceRequest } from './reduce-review.js';
import { renderChunks } from './render-chunks.js';
import { renderRepositoryManifest } from './render-repository-manifest.js';
import { promptVersionHash } from './render-map-prompt.js';
import { chunkCacheKey, runMapPhase, type MapOutcome } from './run-map-phase.js';
import type { RawFinding } from './raw-finding.js';
import { tagPlannedChunks } from './tag-planned-chunks.js';
import { verifyFindings, type LineRange, type UnverifiedFinding } from './verify-findings.js';

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
  /** `--shard`: review only the chunks this says, verify against every chunk's lines, and leave the reduce to the merge. */
  reviewsChunk?: (chunk: Chunk) => boolean;
}

/** What one planned chunk's review gave, before de-duplication: what a shard hands to the merge. */
export interface ChunkFindings {
  chunkId: string;
  verified: Finding[];
  unverified: UnverifiedFinding[];
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
  /** The verified and unverified findings of each planned chunk reviewed, in review order. */
  byChunk: ChunkFindings[];
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
  const reviewsChunk = options.reviewsChunk ?? (() => true);
  const mapped = review.ordered.filter(({ chunk }) => reviewsChunk(chunk));
  const map = await runMapPhase({
    client: options.client,
    chunks: mapped,
    plannedChunkCount: chunks.length,
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
  // A shard verifies as the whole run would: the other shards review the chunks it leaves.
  const othersChunks = chunks.filter((chunk) => !reviewsChunk(chunk));
  const { deduped, unverified, byOutcome } = verifyOutcomes(
    map.outcomes,
    redactedTexts,
    othersChunks,
  );
  const plannedIds = tagPlannedChunks(
    mapped.map(({ chunk }) => chunk),
    map.outcomes.map((outcome) => outcome.chunk),
  );
  const byChunk: ChunkFindings[] = [];
  map.outcomes.forEach((outcome, index) => {
    const checked = byOutcome[index];
    if (checked === undefined) return;
    const chunkId = plannedIds[index] as string;
    const last = byChunk.at(-1);
    if (last?.chunkId === chunkId) {
      last.verified.push(...checked.verified);
      last.unverified.push(...checked.unverified);
    } else byChunk.push({ chunkId, ...checked });
  });

  // A shard leaves ranking and summarising to the merge, which has every shard's findings.
  const reduce = await reduceReview(deduped, {
    client: options.client,
    chunkCount: options.reviewsChunk ? 0 : chunks.length,
    isStoppedByCost: map.isStoppedByCost,
    totals: map.totals,
    price,
    cache,
    promptVersionHash: versionHash,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return {
    findings: reduce.reduced.findings,
    unverified,
    summary: reduce.reduced.summary,
    summaryMissing: reduce.summaryMissing,
    failedFiles,
    totals: reduce.totals,
    calls: map.calls + reduce.calls,
    cacheHits: map.cacheHits,
    isReduceFromCache: reduce.isReduceFromCache,
    isStoppedByCost: map.isStoppedByCost,
    promptVersionHash: versionHash,
    byChunk,
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

/**
 * The reviewed outcomes' findings, each checked against the source on its own, then de-duplicated;
 * `byOutcome` holds each outcome's lists (none for a failed one). `othersChunks` are reviewed
 * elsewhere (other shards), so a finding may cite their lines as the whole run's would.
 */
function verifyOutcomes(
  outcomes: readonly MapOutcome[],
  redactedTexts: ReadonlyMap<string, string>,
  othersChunks: readonly Chunk[] = [],
): {
  deduped: Finding[];
  unverified: UnverifiedFinding[];
  byOutcome: ({ verified: Finding[]; unverified: UnverifiedFinding[] } | undefined)[];
} {
  const reviewedRanges = new Map<string, LineRange[]>();
  const addRanges = (chunk: Chunk) => {
    for (const part of chunk.parts)
      reviewedRanges.set(part.path, [
        ...(reviewedRanges.get(part.path) ?? []),
        { startLine: part.startLine, endLine: part.endLine },
      ]);
  };
  for (const chunk of othersChunks) addRanges(chunk);
  for (const outcome of outcomes) if (outcome.status !== 'failed') addRanges(outcome.chunk);
  const byOutcome = outcomes.map((outcome) =>
    outcome.status === 'failed'
      ? undefined
      : verifyFindings(outcome.findings, redactedTexts, reviewedRanges),
  );
  const verified = byOutcome.flatMap((checked) => checked?.verified ?? []);
  const unverified = byOutcome.flatMap((checked) => checked?.unverified ?? []);
  return { deduped: dedupeFindings(verified), unverified, byOutcome };
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
