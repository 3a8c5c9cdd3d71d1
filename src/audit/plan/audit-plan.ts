import type { AuditScope } from '../scope/audit-scope.js';
import type { FileKind } from '../scope/classify-file.js';
import type { Chunk, LedgerEntry } from '../types.js';
import type { FileLoad, FolderLoad } from './measure-load.js';

/** What `--dry-run` prints: the work a review would do, computed without any network. */
export interface AuditPlan {
  root: string;
  files: {
    reviewed: number;
    skipped: Record<string, number>;
    failed: Record<string, number>;
  };
  /** The chunks the model would review (after `--riskiest`), in path order. */
  chunks: PlannedChunk[];
  /** `--scope`: which kinds of file the model would be sent. */
  scope: AuditScope;
  /** `--riskiest <n>`, or null for every chunk. */
  riskiest: number | null;
  /** Chunks the scope needs, before `--riskiest` keeps the riskiest. */
  chunksNeeded: number;
  /** Provider tokens of every chunk the scope needs, before `--riskiest`. */
  neededProviderTokens: number;
  /** Tokens by top-level folder, heaviest first. */
  folders: FolderLoad[];
  /** The files that would cost the most tokens. */
  largestFiles: FileLoad[];
  /** Files left to the deterministic checks by `--scope`, by kind. */
  deterministicByKind: Partial<Record<FileKind, number>>;
  chunkTokens: number;
  /** Tokenizer tokens per chunk: chunkTokens divided by the headroom. */
  budgetTokens: number;
  headroom: number;
  encoding: string;
  mapCalls: number;
  reduceCalls: number;
  /** Provider tokens of the chunk content that the map calls would send. */
  contentProviderTokens: number;
  maxChunks: number;
  exceedsMaxChunks: boolean;
  planHash: string;
  /** Present when a model is configured: what its review would take. */
  estimate?: ReviewEstimate;
}

export interface ReviewEstimate {
  inputTokens: number;
  outputTokens: number;
  /** null when the model has no known price. */
  costUsd: number | null;
  /** Chunks whose review the cache holds: counted at 0 tokens and $0. */
  cachedChunks: number;
  /** Whether the reduce answer is cached too (so the estimate has no reduce call). */
  isReduceCached: boolean;
  /** Dollars per provider token of chunk content, overheads included, for the whole scope; null without a price. */
  usdPerContentToken: number | null;
  /** `batch` when the map calls are priced as a batch (`--batch`); absent for online prices. */
  pricing?: 'batch';
}

export interface PlannedChunk {
  id: string;
  tokens: number;
  providerTokens: number;
  files: number;
  firstPath: string;
  lastPath: string;
  riskScore: number;
}

/** Counts ledger entries by status and reason. */
export function countLedger(ledger: readonly LedgerEntry[]): AuditPlan['files'] {
  const files: AuditPlan['files'] = { reviewed: 0, skipped: {}, failed: {} };
  for (const entry of ledger) {
    if (entry.status === 'reviewed') {
      files.reviewed++;
    } else {
      const bucket = files[entry.status];
      const reason = entry.reason ?? 'unknown';
      bucket[reason] = (bucket[reason] ?? 0) + 1;
    }
  }
  return files;
}

export function summariseChunk(chunk: Chunk, headroom: number): PlannedChunk {
  return {
    id: chunk.id,
    tokens: chunk.tokens,
    providerTokens: Math.ceil(chunk.tokens * headroom),
    files: chunk.parts.length,
    firstPath: chunk.parts[0]?.path ?? '',
    lastPath: chunk.parts.at(-1)?.path ?? '',
    riskScore: chunk.riskScore,
  };
}
