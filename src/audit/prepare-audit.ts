import { createHash } from 'node:crypto';
import path from 'node:path';
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
import { hintWeight } from './hints/hint-weight.js';
import { indexFile } from './hints/index-file.js';
import { refuseForeignOutputs } from './outputs/refuse-foreign-outputs.js';
import {
  closeAuditOutputs,
  resolveAuditOutputs,
  type AuditOutputs,
} from './outputs/resolve-audit-outputs.js';
import { countLedger, summariseChunk, type AuditPlan } from './plan/audit-plan.js';
import {
  countDeterministicByKind,
  listLargestFiles,
  measureFolderLoads,
} from './plan/measure-load.js';
import { selectRiskiestChunks } from './plan/select-riskiest-chunks.js';
import { DEFAULT_AUDIT_SCOPE, scopeFile } from './scope/audit-scope.js';
import { recordScannedFiles, type ScopedFile } from './scope/record-scanned-files.js';
import { CacheSeal } from './cache-seal/cache-seal.js';
import { isInside } from './gates/base-suppressions.js';
import { ScanCache } from './scan/scan-cache.js';
import { scanFiles } from './scan/scan-files.js';
import { ScanPool } from './scan/scan-pool.js';
import type { ScannedFile } from './scan/scanned-file.js';
import { createTokenCounter, type TokenCounter } from './tokens/count-tokens.js';
import type { CandidateFile, Chunk, ChunkableFile, LedgerEntry } from './types.js';

/** The deterministic stages' result: everything a report or a model review starts from. */
export interface PreparedAudit {
  outputs: AuditOutputs;
  collected: CollectResult;
  /** Candidates that were read and scanned. */
  candidates: CandidateFile[];
  /** Every scanned file: all get the deterministic checks, whatever the scope. */
  files: ScannedFile[];
  /**
   * Files the model does not review (a default folder, the repository's own rules, a marker, an
   * encoding, a size...), read for committed secrets only (no hints, never chunked); their ledger
   * entries say why they were not reviewed.
   */
  secretsOnlyFiles: ScannedFile[];
  /** The chunks the model reviews: the scope's files, cut to `--riskiest` when given. */
  chunkPlan: ChunkPlan;
  /** Chunks `--riskiest` left out. */
  droppedChunks: Chunk[];
  ledger: LedgerEntry[];
  plan: AuditPlan;
}

/**
 * Resolve outputs, self-test the redactor, collect, scan (redact, index, count) and chunk. No network.
 * The outputs' folders stay open for the caller to write through (`closeAuditOutputs`), unless this fails.
 */
export async function prepareAudit(options: AuditOptions): Promise<PreparedAudit> {
  const outputs = await resolveAuditOutputs(
    options.root,
    options.format,
    options.out,
    options.manifest,
  );
  return prepareWithOutputs(options, outputs).catch(async (error: unknown) => {
    await closeAuditOutputs(outputs);
    throw error;
  });
}

async function prepareWithOutputs(
  options: AuditOptions,
  outputs: AuditOutputs,
): Promise<PreparedAudit> {
  const progress = options.onProgress ?? (() => undefined);
  await refuseForeignOutputs(outputs, options.isForced);
  runRedactorSelfTest();

  progress({ stage: 'collect', done: 0, total: 0 });
  const collected = await collectCandidates({
    root: options.root,
    include: options.include,
    exclude: options.exclude,
    projectInclude: options.projectInclude,
    projectExclude: options.projectExclude,
    maxFileBytes: options.maxFileBytes,
    ...(options.submodules === undefined ? {} : { submodules: options.submodules }),
    env: options.env,
    ...(options.diffRef === null ? {} : { diffRef: options.diffRef }),
    ...baselineInWorkspace(options.root, options.baselinePath),
  });
  const { candidates } = collected;
  progress({ stage: 'collect', done: candidates.length, total: candidates.length });

  const budgetTokens = chunkBudgetTokens(options.chunkTokens, options.tokenHeadroom);
  const auditScope = options.scope ?? DEFAULT_AUDIT_SCOPE;
  // Only what the model may be sent is counted exactly; see `ScanTools.needsExactTokens`.
  const exactScope = options.countsOutOfScope === 'exact' ? 'all' : auditScope;
  const workers = ScanPool.chooseWorkers(
    candidates.reduce((sum, candidate) => sum + candidate.size, 0),
    options.scanWorkers ?? 'auto',
  );
  const pool =
    workers > 0
      ? new ScanPool(workers, { encoding: options.encoding, budgetTokens, exactScope })
      : undefined;
  let counter: TokenCounter | undefined;
  // tiktoken loads only when something needs counting: a fully cached run never pays for it.
  const getCounter = () => (counter ??= createTokenCounter(options.encoding));
  try {
    const cache = await ScanCache.open(
      options.cacheDir,
      options.root,
      [OY_VERSION, options.encoding],
      Date.now(),
      {
        seal: CacheSeal.derive(options.sealKey, 'scan-cache'),
        ...(options.onNotice ? { onNotice: options.onNotice } : {}),
      },
    );
    const scan = await scanFiles(candidates, {
      maxFileBytes: options.maxFileBytes,
      concurrency: options.scanConcurrency,
      cache,
      ...(options.sealKey === undefined ? {} : { sealKey: options.sealKey }),
      ...(pool ? { pool } : {}),
      tools: {
        redact: (text) => createRedactor().redact(text),
        indexFile,
        counter: getCounter,
        needsLineTokens: (path, tokens) => needsLineTokens(path, tokens, budgetTokens),
        needsExactTokens: (path) => scopeFile(path, exactScope).scope === 'model',
      },
      onFileDone: (done, total) => progress({ stage: 'scan', done, total }),
    });

    progress({ stage: 'chunk', done: 0, total: scan.files.length });
    const scoped: ScopedFile[] = scan.files.map((file) => ({
      file,
      ...scopeFile(file.path, auditScope),
    }));
    const neededPlan = planChunks(
      scoped.filter((item) => item.scope === 'model').map((item) => toChunkable(item.file)),
      {
        chunkTokens: options.chunkTokens,
        headroom: options.tokenHeadroom,
        countTokens: (text) => cache.countHeader(text, (header) => getCounter().count(header)),
      },
    );
    await cache.save();
    progress({ stage: 'chunk', done: scan.files.length, total: scan.files.length });

    const selection = selectRiskiestChunks(neededPlan.chunks, options.riskiestChunks ?? null);
    const chunkPlan = { ...neededPlan, chunks: selection.kept };
    const ledger = [
      ...collected.ledger,
      ...scan.ledger,
      ...recordScannedFiles({
        files: scoped,
        chunkPlan,
        droppedChunks: selection.dropped,
        auditScope,
      }),
    ].sort((a, b) => comparePaths(a.path, b.path));
    const plan = {
      ...buildPlan(options, chunkPlan, ledger),
      scope: auditScope,
      riskiest: options.riskiestChunks ?? null,
      chunksNeeded: neededPlan.chunks.length,
      neededProviderTokens: providerTokens(neededPlan.chunks, options.tokenHeadroom),
      folders: measureFolderLoads(scoped),
      largestFiles: listLargestFiles(scoped),
      deterministicByKind: countDeterministicByKind(scoped),
    };
    return {
      outputs,
      collected,
      candidates,
      files: scan.files,
      secretsOnlyFiles: scan.secretsOnly,
      chunkPlan,
      droppedChunks: selection.dropped,
      ledger,
      plan,
    };
  } finally {
    counter?.free();
    await pool?.close();
  }
}

type BasePlan = Omit<
  AuditPlan,
  | 'scope'
  | 'riskiest'
  | 'chunksNeeded'
  | 'neededProviderTokens'
  | 'folders'
  | 'largestFiles'
  | 'deterministicByKind'
>;

function buildPlan(options: AuditOptions, chunkPlan: ChunkPlan, ledger: LedgerEntry[]): BasePlan {
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
    contentProviderTokens: providerTokens(chunks, options.tokenHeadroom),
    maxChunks: options.maxChunks,
    exceedsMaxChunks: chunks.length > options.maxChunks,
    planHash,
  };
}

function providerTokens(chunks: readonly Chunk[], headroom: number): number {
  return Math.ceil(chunks.reduce((sum, chunk) => sum + chunk.tokens, 0) * headroom);
}

function toChunkable(file: ScannedFile): ChunkableFile {
  // Fail closed: an estimate could put a chunk over its budget.
  if (file.isTokenEstimate)
    throw new Error(`${file.path}: an estimated token count reached chunking`);
  return {
    path: file.path,
    tokens: file.tokens,
    lineCount: file.lineCount,
    contentHash: file.contentHash,
    ...(file.lineTokens ? { lineTokens: file.lineTokens } : {}),
    riskScore: file.hints.reduce((sum, hint) => sum + hintWeight(hint.severity), 0),
  };
}

/** `--baseline` as a workspace path (forward slashes), when the file lies inside the workspace. */
function baselineInWorkspace(root: string, baselinePath: string | null): { baselineFile?: string } {
  if (baselinePath === null) return {};
  const relative = path.relative(root, path.resolve(root, baselinePath));
  if (!isInside(relative)) return {};
  return { baselineFile: relative.split(path.sep).join('/') };
}
