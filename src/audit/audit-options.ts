import type { ReportFormat, TokenEncoding } from '../config/config-schema.js';
import type { AuditScope } from './scope/audit-scope.js';
import type { Severity } from './types.js';
import type { BatchEvent } from './review/batch/run-map-batch.js';
import type { ConfiguredModels } from '../providers/model-facts/configured-models.js';
import type { ShardSpec } from './shard/shard-spec.js';

/** Everything `runAudit` needs, already validated by the command layer. */
export interface AuditOptions {
  /** Absolute real path of the workspace. */
  root: string;
  format: ReportFormat;
  /** `--out` as given (resolved against the workspace), `-` for stdout, or null for the format's default name. */
  out: string | null;
  manifest: string | null;
  /** `--force`: overwrite an existing output file that holds no oy marker. */
  isForced: boolean;
  /**
   * The user's state key (`loadOutputSealKey`): outputs are sealed with it, and only files sealed
   * with it are left out as oy's own; the caches are sealed with keys derived from it. Absent: a key
   * for this process alone.
   */
  sealKey?: Uint8Array;
  include: string[];
  exclude: string[];
  /** The project file's `audit.include`/`audit.exclude`: repository content, counted as not reviewed. */
  projectInclude: string[];
  projectExclude: string[];
  focus: string[];
  /** `--diff <ref>`: the work-tree files changed since it, and the secrets each commit of `<ref>..HEAD` added. */
  diffRef: string | null;
  /** `--history`: also scan every commit reachable from HEAD for the secrets it added. */
  scansAllHistory?: boolean;
  /** `--no-submodules` gives false: each submodule is one `skipped(submodule)` line. Default true. */
  submodules?: boolean;
  maxFileBytes: number;
  chunkTokens: number;
  maxChunks: number;
  /** `--scope`: which kinds of file the model reviews; `shipping` when absent. */
  scope?: AuditScope;
  /** `--shard K/N`: review only this shard's chunks and write a shard report (JSON) for `oy report merge`. */
  shard?: ShardSpec | null;
  /** `--riskiest <n>`: review only the n riskiest chunks, the rest `skipped(budget)`; null or absent for all. */
  riskiestChunks?: number | null;
  /** Tokenizer-to-provider headroom factor; 1.3 when the provider is Claude or unknown. */
  tokenHeadroom: number;
  encoding: TokenEncoding;
  isDryRun: boolean;
  /** Map calls in flight at once (`--concurrency`). */
  concurrency: number;
  /** `--max-cost` in USD: refuse to start above the estimate, stop launching calls at it. */
  maxCostUsd: number | null;
  failOn: Severity | null;
  /** `--baseline`: findings whose fingerprint it lists are suppressed. */
  baselinePath: string | null;
  /** `--write-baseline`: write the fingerprints of this run's findings here. */
  writeBaselinePath: string | null;
  minCoverage: number | null;
  allowPartial: boolean;
  /** The configured model, or null for the offline report. */
  model: string | null;
  /** `--offline` was given: the report says the run was offline by choice, not for want of a model. */
  isOfflineByChoice?: boolean;
  /** The user config's `models`: facts and prices for models the built-in table lacks. */
  models?: ConfiguredModels;
  /** `--batch`: the map calls go out as one Message Batch, waited for up to `timeoutMs` (`--batch-timeout`). */
  batch?: { timeoutMs: number; pollIntervalMs: number | null } | null;
  /** oy's private state folder: the record of a batch still out is kept there; null for none. */
  stateDir?: string | null;
  /** Directory for the scan cache, or null for no cache. */
  cacheDir: string | null;
  /** The command line that reproduces this run, for the report. */
  command: string;
  /** Files read, redacted, indexed and counted at once. */
  scanConcurrency: number;
  /** Scan worker threads: 'auto' (the default) uses the spare cores for a large tree, 0 none. */
  scanWorkers?: number | 'auto';
  /**
   * How files the scope keeps from the model are counted: `estimate` (the default; the count only
   * feeds the plan) or `exact`, which the tests use to show the estimate changes nothing sent.
   */
  countsOutOfScope?: 'estimate' | 'exact';
  /** The caller's environment, handed to git (HOME for its global excludes and safe.directory). */
  env: Readonly<Record<string, string | undefined>>;
  onProgress?: (event: AuditProgress) => void;
  /** Details `--verbose` shows: a cache entry that did not verify, a chunk reviewed in halves, a cut reduce answer. */
  onNotice?: (text: string) => void;
  /** What `--batch` says as it goes: submitted or picked up, each poll, ended. */
  onBatchEvent?: (event: BatchEvent) => void;
}

export type AuditStage = 'collect' | 'scan' | 'history' | 'chunk' | 'review' | 'report';

/** Progress for the terminal: the core never prints, it reports. */
export interface AuditProgress {
  stage: AuditStage;
  done: number;
  total: number;
  message?: string;
}
