import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { CandidateFile, CollectedFile, LedgerEntry, SkipReason } from '../types.js';
import { checkContent } from './check-content.js';
import { describeFileType } from './describe-file-type.js';
import { readUpTo } from './read-up-to.js';
import { skipEntry } from './skip-entry.js';

// O_NOFOLLOW: a symlink swapped in after listing fails (ELOOP) instead of redirecting the read.
// O_NONBLOCK: a FIFO swapped in cannot block the open; fstat then rejects it.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads one candidate and runs the content checks. The file may have changed since it was
 * listed, so its type and size are checked again on the open handle. Never throws for a bad
 * file: every outcome is a collected file or a ledger entry.
 */
export async function readCandidate(
  candidate: CandidateFile,
  maxFileBytes: number,
): Promise<{ file: CollectedFile } | { entry: LedgerEntry }> {
  const skip = (reason: SkipReason, detail?: string): { entry: LedgerEntry } => ({
    entry: skipEntry(candidate.path, reason, detail),
  });
  let handle: FileHandle;
  try {
    handle = await open(candidate.absolutePath, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT' || code === 'ENOTDIR') return skip('missing');
    // ELOOP is O_NOFOLLOW refusing a symlink (EMLINK on some BSDs).
    if (code === 'ELOOP' || code === 'EMLINK') return skip('symlink');
    return skip('unreadable', code);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return skip('not-regular-file', describeFileType(stats));
    if (stats.size > maxFileBytes) {
      return skip('too-large', `${stats.size} bytes, limit ${maxFileBytes}`);
    }
    if (stats.size === 0) return skip('empty');
    const bytes = await readUpTo(handle, stats.size);
    if (bytes.length === 0) return skip('empty');
    const verdict = checkContent(bytes, candidate.path);
    if ('reason' in verdict) return skip(verdict.reason, verdict.detail);
    return {
      file: {
        path: candidate.path,
        text: verdict.text,
        size: bytes.length,
        isTracked: candidate.isTracked,
      },
    };
  } catch (error) {
    return skip('unreadable', (error as NodeJS.ErrnoException).code ?? 'error');
  } finally {
    await handle.close().catch(() => undefined);
  }
}
