import { ProviderError } from '../../providers/provider-error.js';
import { OyError, EXIT } from '../../shared/errors.js';
import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { batchPriceFor } from '../../providers/pricing/batch-price.js';
import { runMapBatch, type MapBatch, type MapBatchOptions } from './batch/run-map-batch.js';
import { addToTotals, type UsageTotals } from '../../providers/pricing/usage-totals.js';
import type { ModelClient } from '../../providers/types.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import { orderChunksByRisk } from '../chunk/order-chunks-by-risk.js';
import type { PreparedAudit } from '../prepare-audit.js';
import type { Chunk, Finding, LedgerEntry, SecurityHint } from '../types.js';
import { applyReduce } from './apply-reduce.js';
import { renderPart } from '../chunk/render-part.js';
import { createDelimiter } from './create-delimiter.js';
import { judgeAnswerEnd, type CutAnswerReason } from './judge-answer-end.js';
import { dedupeFindings } from './dedupe-findings.js';
import { CacheSeal } from '../cache-seal/cache-seal.js';
import { MapCache } from './map-cache.js';
import { parseReduceAnswer } from './parse-reduce-answer.js';
import { reduceFindingIds } from './reduce-finding-ids.js';
import { renderChunks } from './render-chunks.js';
import { REDUCE_BUDGET_CHARS, renderReducePrompt } from './render-reduce-prompt.js';
import { renderRepositoryManifest } from './render-repository-manifest.js';
import { promptVersionHash } from './render-map-prompt.js';
import { runMapPhase, type MapOutcome } from './run-map-phase.js';
import { verifyFindings, type LineRange, type UnverifiedFinding } from './verify-findings.js';

/** Answer budget of the reduce call: a summary and two id lists. */
const REDUCE_MAX_TOKENS = 4096;

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

/** Why the reduce answer was not used: the findings keep their deterministic order and there is no summary. */
export interface ReduceFailure {
  reason: CutAnswerReason;
  detail: string;
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
}

/** Map every chunk (riskiest first), verify the findings against the source, de-duplicate, then one reduce call. */
export async function runModelReview(
  prepared: PreparedAudit,
  options: ModelReviewOptions,
): Promise<ModelReview> {
  const { chunks } = prepared.chunkPlan;
  const redactor = createRedactor();
  // Each file is numbered on its own, so the map cache keys of other chunks survive a new secret.
  const { rendered, redactedTexts } = await renderChunks(chunks, {
    candidates: new Map(prepared.candidates.map((candidate) => [candidate.path, candidate])),
    sourceHashes: new Map(prepared.files.map((file) => [file.path, file.sourceHash])),
    createRedactor: () => createRedactor(),
    maxFileBytes: options.maxFileBytes,
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
  const hintsByPath = groupHints(prepared.files.flatMap((file) => file.hints));
  const delimiter = createDelimiter(textById.values());
  const versionHash = promptVersionHash();
  const facts = modelFactsFor(options.client.ref);
  const price = facts.price;
  const batchOptions = options.batch;
  const held: { batch?: MapBatch } = {};
  const map = await runMapPhase({
    client: options.client,
    chunks: orderChunksByRisk(chunks).flatMap((chunk) => {
      const text = textById.get(chunk.id);
      return text === undefined ? [] : [{ chunk, text }];
    }),
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
  const reviewedRanges = new Map<string, LineRange[]>();
  const rawFindings = [];
  for (const outcome of map.outcomes) {
    if (outcome.status === 'failed') {
      markFailed(failedFiles, outcome.chunk, outcome.reason, outcome.detail);
      continue;
    }
    for (const part of outcome.chunk.parts) {
      reviewedRanges.set(part.path, [
        ...(reviewedRanges.get(part.path) ?? []),
        { startLine: part.startLine, endLine: part.endLine },
      ]);
    }
    rawFindings.push(...outcome.findings);
  }
  const { verified, unverified } = verifyFindings(rawFindings, redactedTexts, reviewedRanges);
  const deduped = dedupeFindings(verified);

  let totals = map.totals;
  let calls = map.calls;
  let reduced = applyReduce(deduped, null);
  let reduceFailure: ReduceFailure | null = null;
  // A single chunk was already reviewed as a whole; several need one call to rank and summarise.
  if (chunks.length > 1 && deduped.length > 0 && !map.isStoppedByCost) {
    const prompt = renderReducePrompt(deduped, REDUCE_BUDGET_CHARS);
    try {
      const result = await options.client.complete(
        {
          system: prompt.system,
          messages: [{ role: 'user', text: redactor.redact(prompt.user).text }],
          maxTokens: REDUCE_MAX_TOKENS,
        },
        options.signal ? { signal: options.signal } : {},
      );
      calls++;
      totals = addToTotals(totals, result.usage, price);
      // A cut answer may rank a few findings and leave the rest, or hold half a summary: none of it is used.
      const end = judgeAnswerEnd(result.stopReason);
      if (end.isWhole)
        reduced = applyReduce(deduped, parseReduceAnswer(result.text, reduceFindingIds(deduped)));
      else {
        reduceFailure = { reason: end.reason, detail: end.detail };
        options.onNotice?.(
          `the reduce answer was not used, so the report has no summary: ${end.detail}`,
        );
      }
    } catch {
      // The reduce step only ranks and summarises: without it, the deterministic order stands.
    }
  }
  return {
    findings: reduced.findings,
    unverified,
    summary: reduced.summary,
    reduceFailure,
    failedFiles,
    totals,
    calls,
    cacheHits: map.cacheHits,
    isStoppedByCost: map.isStoppedByCost,
    promptVersionHash: versionHash,
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
