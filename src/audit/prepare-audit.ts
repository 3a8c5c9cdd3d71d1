import { createHash } from 'node:crypto';
import { OY_VERSION } from '../shared/version.js';
import { runRedactorSelfTest } from '../safety/redact/self-test.js';
import { createRedactor } from '../safety/redact/redactor.js';
import type { AuditOptions } from './audit-options.js';
import {
  chunkBudgetTokens,
  needsLineTokens,
  planChunks,
  type ChunkPlan,
} from './chunk/plan-chunks.js';
import { collectCandidates } from './collect/collect-candidates.js';
import { comparePaths } from '../shared/files/compare-paths.js';
import type { CollectResult } from './collect/collect-types.js';
import { hintWeight } from './index/hint-weight.js';
import { indexFile } from './index/index-file.js';
import { refuseForeignOutputs } from './outputs/refuse-foreign-outputs.js';
import { resolveAuditOutputs, type AuditOutputs } from './outputs/resolve-audit-outputs.js';
import { countLedger, summariseChunk, type AuditPlan } from './plan/audit-plan.js';
import { ScanCache } from './scan/scan-cache.js';
import { scanFiles } from './scan/scan-files.js';
import { ScanPool } from './scan/scan-pool.js';
import type { ScannedFile } from './scan/scanned-file.js';
import { createTokenCounter, type TokenCounter } from './tokens/count-tokens.js';
import type { CandidateFile, ChunkableFile, LedgerEntry } from './types.js';

/** The deterministic stages' result: everything a report or a model review starts from. */
export interface PreparedAudit {
  outputs: AuditOutputs;
  collected: CollectResult;
  /** Candidates that were scanned (this run's own outputs set aside). */
  candidates: CandidateFile[];
  files: ScannedFile[];
  chunkPlan: ChunkPlan;
  ledger: LedgerEntry[];
  plan: AuditPlan;
}

/** Resolve outputs, self-test the redactor, collect, scan (redact, index, count) and chunk. No network. */
export async function prepareAudit(options: AuditOptions): Promise<PreparedAudit> {
  const progress = options.onProgress ?? (() => undefined);
  const outputs = resolveAuditOutputs(options.root, options.format, options.out, options.manifest);
  refuseForeignOutputs(outputs, options.isForced);
  runRedactorSelfTest();

  progress({ stage: 'collect', done: 0, total: 0 });
  const collected = await collectCandidates({
    root: options.root,
    include: options.include,
    exclude: options.exclude,
    projectInclude: options.projectInclude,
    projectExclude: options.projectExclude,
    maxFileBytes: options.maxFileBytes,
    env: options.env,
    ...(options.diffRef === null ? {} : { diffRef: options.diffRef }),
  });
  const { candidates, skipped: ownOutputs } = setAsideOwnOutputs(collected.candidates, outputs);
  progress({ stage: 'collect', done: candidates.length, total: candidates.length });

  const budgetTokens = chunkBudgetTokens(options.chunkTokens, options.tokenHeadroom);
  const workers = ScanPool.chooseWorkers(
    candidates.reduce((sum, candidate) => sum + candidate.size, 0),
    options.scanWorkers ?? 'auto',
  );
  const pool =
    workers > 0 ? new ScanPool(workers, { encoding: options.encoding, budgetTokens }) : undefined;
  let counter: TokenCounter | undefined;
  // tiktoken loads only when something needs counting: a fully cached run never pays for it.
  const getCounter = () => (counter ??= createTokenCounter(options.encoding));
  try {
    const cache = await ScanCache.open(options.cacheDir, options.root, [
      OY_VERSION,
      options.encoding,
    ]);
    const scan = await scanFiles(candidates, {
      maxFileBytes: options.maxFileBytes,
      concurrency: options.scanConcurrency,
      cache,
      ...(pool ? { pool } : {}),
      tools: {
        redact: (text) => createRedactor().redact(text),
        indexFile,
        counter: getCounter,
        needsLineTokens: (path, tokens) => needsLineTokens(path, tokens, budgetTokens),
      },
      onFileDone: (done, total) => progress({ stage: 'scan', done, total }),
    });

    progress({ stage: 'chunk', done: 0, total: scan.files.length });
    const chunkPlan = planChunks(scan.files.map(toChunkable), {
      chunkTokens: options.chunkTokens,
      headroom: options.tokenHeadroom,
      countTokens: (text) => cache.countHeader(text, (header) => getCounter().count(header)),
    });
    await cache.save();
    progress({ stage: 'chunk', done: scan.files.length, total: scan.files.length });

    const oversized = new Set(chunkPlan.oversized.map((item) => item.path));
    const ledger = [
      ...collected.ledger,
      ...ownOutputs,
      ...scan.ledger,
      ...scan.files.map((file): LedgerEntry =>
        oversized.has(file.path)
          ? {
              path: file.path,
              status: 'skipped',
              reason: 'line-too-long',
              detail: 'a single line exceeds the chunk budget',
            }
          : { path: file.path, status: 'reviewed' },
      ),
    ].sort((a, b) => comparePaths(a.path, b.path));
    const plan = buildPlan(options, chunkPlan, ledger);
    return { outputs, collected, candidates, files: scan.files, chunkPlan, ledger, plan };
  } finally {
    counter?.free();
    await pool?.close();
  }
}

function buildPlan(options: AuditOptions, chunkPlan: ChunkPlan, ledger: LedgerEntry[]): AuditPlan {
  const { chunks } = chunkPlan;
  const planHash = createHash('sha256')
    .update(
      JSON.stringify([
        options.chunkTokens,
        options.tokenHeadroom,
        options.encoding,
        chunks.map((chunk) => chunk.id),
      ]),
    )
    .digest('hex');
  return {
    root: options.root,
    files: countLedger(ledger),
    chunks: chunks.map((chunk) => summariseChunk(chunk, options.tokenHeadroom)),
    chunkTokens: options.chunkTokens,
    budgetTokens: chunkPlan.budgetTokens,
    headroom: options.tokenHeadroom,
    encoding: options.encoding,
    mapCalls: chunks.length,
    // A repository that fits one chunk is reviewed in a single call, with no reduce step.
    reduceCalls: chunks.length > 1 ? 1 : 0,
    contentProviderTokens: Math.ceil(
      chunks.reduce((sum, chunk) => sum + chunk.tokens, 0) * options.tokenHeadroom,
    ),
    maxChunks: options.maxChunks,
    exceedsMaxChunks: chunks.length > options.maxChunks,
    planHash,
  };
}

function toChunkable(file: ScannedFile): ChunkableFile {
  return {
    path: file.path,
    tokens: file.tokens,
    lineCount: file.lineCount,
    contentHash: file.contentHash,
    ...(file.lineTokens ? { lineTokens: file.lineTokens } : {}),
    riskScore: file.hints.reduce((sum, hint) => sum + hintWeight(hint.severity), 0),
  };
}

/** This run's own report and manifest are not audited: they are what it is about to replace. */
function setAsideOwnOutputs(candidates: CandidateFile[], outputs: AuditOutputs) {
  const own = new Set([outputs.reportPath, outputs.manifestPath]);
  const skipped: LedgerEntry[] = [];
  const kept = candidates.filter((candidate) => {
    if (!own.has(candidate.absolutePath)) return true;
    skipped.push({
      path: candidate.path,
      status: 'skipped',
      reason: 'oy-output',
      detail: 'this run writes it',
    });
    return false;
  });
  return { candidates: kept, skipped };
}
