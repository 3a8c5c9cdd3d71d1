import type { TokenEncoding } from '../../config/config-schema.js';
import type { AuditScope } from '../scope/audit-scope.js';
import type { AllowedLine } from '../scan/scanned-file.js';
import type { AuditReport, Finding, HistorySecret, LedgerEntry } from '../types.js';
import type { ShardSpec } from './shard-spec.js';

/** What `oy audit --shard K/N` writes: one shard's share of the review, and all a merge needs. */
export interface ShardReport {
  /** Names the document and its version: a merge refuses anything else. */
  oyShardReport: 1;
  shard: ShardSpec;
  /** Every fact that changes the result: shards must agree on all of it to merge. */
  identity: ShardIdentity;
  /** Every planned chunk's id, in review order (riskiest first). */
  chunks: string[];
  /** The chunks this shard reviewed: its share of `chunks` (`shardOfChunk`). */
  reviewedChunks: string[];
  /** The coverage ledger before the review marked any chunk's files failed. */
  ledger: LedgerEntry[];
  /** Lines an `oy:allow` comment accepts a committed secret on, per file. */
  allowedSecretLines: { path: string; allowedSecretLines: AllowedLine[] }[];
  /** With `--diff`: `<line>:<path>` of the allow lines the change adds, which suppress nothing. */
  addedAllowLines: string[];
  /** Secrets the history scan found on a line an `oy:allow` marker accepts. */
  historyAllowed: HistorySecret[];
  /** null for an offline shard. */
  review: ShardReview | null;
  /** This shard's own report (its findings only, no baseline applied): readable on its own. */
  report: AuditReport;
  /** sha256 (hex) of this document without `digest` and `oySeal`: a changed file is refused. */
  digest: string;
}

export interface ShardIdentity {
  oyVersion: string;
  gitCommit: string | null;
  isDirty: boolean | null;
  pathFromTop: string;
  planHash: string;
  /** null offline. */
  promptVersionHash: string | null;
  /** null offline. */
  model: string | null;
  /** With `--diff <ref>`: the commit `<ref>` named, which the merge reads the baseline as of. */
  diffRefCommit: string | null;
  options: ShardOptions;
}

/** The audit options that change what a run reports (`--concurrency` and the outputs do not). */
export interface ShardOptions {
  scope: AuditScope;
  riskiest: number | null;
  focus: string[];
  include: string[];
  exclude: string[];
  projectInclude: string[];
  projectExclude: string[];
  diffRef: string | null;
  history: boolean;
  maxFileBytes: number;
  chunkTokens: number;
  tokenHeadroom: number;
  encoding: TokenEncoding;
  maxCostUsd: number | null;
  isOfflineByChoice: boolean;
}

export interface ShardReview {
  /** Verified and unverified findings per reviewed chunk, in review order, before de-duplication. */
  byChunk: { chunkId: string; verified: Finding[]; unverified: Finding[] }[];
  /** Ledger entries of files whose chunk could not be reviewed. */
  failedFiles: LedgerEntry[];
  totals: {
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    costUsd: number | null;
  };
  calls: number;
  cacheHits: number;
  isStoppedByCost: boolean;
}
