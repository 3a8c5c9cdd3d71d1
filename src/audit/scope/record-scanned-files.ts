import type { ChunkPlan } from '../chunk/plan-chunks.js';
import type { ScannedFile } from '../scan/scanned-file.js';
import type { Chunk, LedgerEntry } from '../types.js';
import { FILE_KIND_LABELS, type FileKind } from './classify-file.js';
import type { AuditScope, ReviewScope } from './audit-scope.js';

export interface ScopedFile {
  file: ScannedFile;
  kind: FileKind;
  scope: ReviewScope;
}

export interface ScannedFileRecord {
  files: readonly ScopedFile[];
  chunkPlan: ChunkPlan;
  /** Chunks `--riskiest` left out. */
  droppedChunks: readonly Chunk[];
  /** The run's `--scope`, for the detail line. */
  auditScope: AuditScope;
}

/**
 * The ledger entries of the scanned files: `reviewed` when every part of the file is in a chunk
 * the model will see, otherwise `skipped` with the reason: `scope`, `budget` or `line-too-long`.
 * Each entry names the file's kind and who looked at it.
 */
export function recordScannedFiles(record: ScannedFileRecord): LedgerEntry[] {
  const oversized = new Set(record.chunkPlan.oversized.map((item) => item.path));
  const dropped = new Map<string, string[]>();
  for (const chunk of record.droppedChunks) {
    for (const part of chunk.parts) {
      const range = part.isSplit ? `lines ${part.startLine}-${part.endLine}` : 'the whole file';
      dropped.set(part.path, [...(dropped.get(part.path) ?? []), range]);
    }
  }
  return record.files.map(({ file, kind, scope }): LedgerEntry => {
    const tags = { kind, scope };
    if (scope === 'deterministic') {
      const detail = `${FILE_KIND_LABELS[kind]}: deterministic checks only under --scope ${record.auditScope} (--scope all sends it to the model)`;
      return { path: file.path, status: 'skipped', reason: 'scope', detail, ...tags };
    }
    if (oversized.has(file.path)) {
      const detail = 'a single line exceeds the chunk budget';
      return { path: file.path, status: 'skipped', reason: 'line-too-long', detail, ...tags };
    }
    const ranges = dropped.get(file.path);
    if (ranges !== undefined) {
      const detail = `not among the --riskiest chunks: ${ranges.join(', ')}`;
      return { path: file.path, status: 'skipped', reason: 'budget', detail, ...tags };
    }
    return { path: file.path, status: 'reviewed', ...tags };
  });
}
