import { ProviderError } from '../../providers/provider-error.js';
import { OyError, EXIT } from '../../shared/errors.js';
import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import type { UsageTotals } from '../../providers/pricing/usage-totals.js';
import type { ModelClient } from '../../providers/types.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import { orderChunksByRisk } from '../chunk/order-chunks-by-risk.js';
import type { PreparedAudit } from '../prepare-audit.js';
import type { Chunk, Finding, LedgerEntry, SecurityHint } from '../types.js';
import { renderPart } from '../chunk/render-part.js';
import { createDelimiter } from './create-delimiter.js';
import { dedupeFindings } from './dedupe-findings.js';
import { CacheSeal } from '../cache-seal/cache-seal.js';
import { MapCache } from './map-cache.js';
import { reduceReview, type ReduceFailure } from './reduce-review.js';
import { renderChunks } from './render-chunks.js';
import { renderRepositoryManifest } from './render-repository-manifest.js';
import { promptVersionHash } from './render-map-prompt.js';
import { runMapPhase, type MapOutcome } from './run-map-phase.js';
import { tagPlannedChunks } from './tag-planned-chunks.js';
import { verifyFindings, type LineRange, type UnverifiedFinding } from './verify-findings.js';

export type { ReduceFailure };

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
  /** Set when the reduce answer did not end normally, so the summary is missing for this reason. */
  reduceFailure: ReduceFailure | null;
  /** Ledger entries of files whose chunk could not be reviewed (replacing `reviewed`). */
  failedFiles: Map<string, LedgerEntry>;
  totals: UsageTotals;
  calls: number;
  cacheHits: number;
  isStoppedByCost: boolean;
  promptVersionHash: string;
  /** The verified and unverified findings of each planned chunk reviewed, in review order. */
  byChunk: ChunkFindings[];
}

/** Map every chunk (riskiest first), verify the findings against the source, de-duplicate, then one reduce call. */
export async function runModelReview(
  prepared: PreparedAudit,
  options: ModelReviewOptions,
): Promise<ModelReview> {
  const { chunks } = prepared.chunkPlan;
  // Each file is numbered on its own, so the map cache keys of other chunks survive a new secret.
  const { rendered, redactedTexts } = await renderChunks(chunks, {
    candidates: new Map(prepared.candidates.map((candidate) => [candidate.path, candidate])),
    sourceHashes: new Map(prepared.files.map((file) => [file.path, file.sourceHash])),
    createRedactor: () => createRedactor(),
    maxFileBytes: options.maxFileBytes,
  });
  const reviewsChunk = options.reviewsChunk ?? (() => true);
  const textById = new Map<string, string>();
  const failedFiles = new Map<string, LedgerEntry>();
  for (const item of rendered) {
    if ('text' in item) textById.set(item.chunk.id, item.text);
    else if (reviewsChunk(item.chunk))
      markFailed(
        failedFiles,
        item.chunk,
        item.failure.reason,
        `${item.failure.path} changed or vanished during the run`,
      );
  }
  const hintsByPath = groupHints(prepared.files.flatMap((file) => file.hints));
  const delimiter = createDelimiter(textById.values());
  const versionHash = promptVersionHash();
  const price = modelFactsFor(options.client.ref).price;
  const mapped = orderChunksByRisk(chunks).flatMap((chunk) => {
    const text = textById.get(chunk.id);
    return text === undefined || !reviewsChunk(chunk) ? [] : [{ chunk, text }];
  });
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
    cache: MapCache.open(options.cacheDir, {
      seal: CacheSeal.derive(options.stateKey, 'map-cache'),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
    }),
    promptVersionHash: versionHash,
    price,
    maxCostUsd: options.maxCostUsd,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onChunkDone: options.onProgress } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  });

  throwIfDead(map.outcomes, map.fatalError);
  const reviewedRanges = new Map<string, LineRange[]>();
  const addRanges = (chunk: Chunk) => {
    for (const part of chunk.parts) {
      reviewedRanges.set(part.path, [
        ...(reviewedRanges.get(part.path) ?? []),
        { startLine: part.startLine, endLine: part.endLine },
      ]);
    }
  };
  // A shard verifies as the whole run would: the other shards review the chunks it leaves.
  for (const chunk of chunks) if (!reviewsChunk(chunk)) addRanges(chunk);
  for (const outcome of map.outcomes) {
    if (outcome.status === 'failed')
      markFailed(failedFiles, outcome.chunk, outcome.reason, outcome.detail);
    else addRanges(outcome.chunk);
  }
  // Each finding is checked on its own, so verifying chunk by chunk gives the whole run's lists.
  const plannedIds = tagPlannedChunks(
    mapped.map(({ chunk }) => chunk),
    map.outcomes.map((outcome) => outcome.chunk),
  );
  const byChunk: ChunkFindings[] = [];
  map.outcomes.forEach((outcome, index) => {
    if (outcome.status === 'failed') return;
    const checked = verifyFindings(outcome.findings, redactedTexts, reviewedRanges);
    const chunkId = plannedIds[index] as string;
    const last = byChunk.at(-1);
    if (last?.chunkId === chunkId) {
      last.verified.push(...checked.verified);
      last.unverified.push(...checked.unverified);
    } else byChunk.push({ chunkId, ...checked });
  });
  const verified = byChunk.flatMap((item) => item.verified);
  const unverified = byChunk.flatMap((item) => item.unverified);
  const deduped = dedupeFindings(verified);

  // A shard leaves ranking and summarising to the merge, which has every shard's findings.
  const { reduced, reduceFailure, totals, calls } = await reduceReview(deduped, {
    client: options.client,
    chunkCount: options.reviewsChunk ? 0 : chunks.length,
    isStoppedByCost: map.isStoppedByCost,
    totals: map.totals,
    price,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onNotice ? { onNotice: options.onNotice } : {}),
  });
  return {
    findings: reduced.findings,
    unverified,
    summary: reduced.summary,
    reduceFailure,
    failedFiles,
    totals,
    calls: map.calls + calls,
    cacheHits: map.cacheHits,
    isStoppedByCost: map.isStoppedByCost,
    promptVersionHash: versionHash,
    byChunk,
  };
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
