import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from 'node:fs';
import type { CandidateFile, CollectedFile, LedgerEntry, SkipReason } from '../types.js';
import { checkContent } from './check-content.js';
import { describeFileType } from './describe-file-type.js';
import { fileIdentity, type FileIdentity } from './file-identity.js';
import { skipEntry } from './skip-entry.js';

// O_NOFOLLOW: a symlink swapped in after listing fails (ELOOP) instead of redirecting the read.
// O_NONBLOCK: a FIFO swapped in cannot block the open; fstat then rejects it.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads one candidate and runs the content checks. The file may have changed since it was
 * listed, so its type and size are checked again on the open descriptor. Never throws for a bad
 * file: every outcome is a collected file or a ledger entry. The calls are synchronous because
 * thousands of small, usually cached reads are several times faster that way than through
 * the thread pool; the scan is CPU-bound either way.
 */
export async function readCandidate(
  candidate: CandidateFile,
  maxFileBytes: number,
): Promise<{ file: CollectedFile } | { entry: LedgerEntry }> {
  const read = readCandidateBytes(candidate, maxFileBytes);
  if ('entry' in read) return Promise.resolve(read);
  return Promise.resolve(checkCandidate(candidate, read.bytes));
}

/** The content checks on bytes `readCandidateBytes` read: a collected file or a ledger entry. */
export function checkCandidate(
  candidate: CandidateFile,
  bytes: Buffer,
): { file: CollectedFile } | { entry: LedgerEntry; skip: { reason: SkipReason; detail?: string } } {
  const verdict = checkContent(bytes, candidate.path);
  if ('reason' in verdict)
    return { entry: skipEntry(candidate.path, verdict.reason, verdict.detail), skip: verdict };
  return {
    file: {
      path: candidate.path,
      text: verdict.text,
      size: bytes.length,
      isTracked: candidate.isTracked,
    },
  };
}

/**
 * A candidate's bytes, before the content checks: what a warm scan needs to find its cache entry
 * without decoding, and the identity of the version read. Every way the open can fail, or the
 * file be the wrong kind, is a ledger entry.
 */
export function readCandidateBytes(
  candidate: CandidateFile,
  maxFileBytes: number,
): { bytes: Buffer; identity: FileIdentity } | { entry: LedgerEntry } {
  const skip = (reason: SkipReason, detail?: string): { entry: LedgerEntry } => ({
    entry: skipEntry(candidate.path, reason, detail),
  });
  let fd: number;
  try {
    fd = openSync(candidate.absolutePath, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT' || code === 'ENOTDIR') return skip('missing');
    // ELOOP is O_NOFOLLOW refusing a symlink (EMLINK on some BSDs).
    if (code === 'ELOOP' || code === 'EMLINK') return skip('symlink');
    return skip('unreadable', code);
  }
  try {
    if (!isOpenedAt(fd, candidate.absolutePath)) {
      return skip('symlink', 'a parent folder is a symlink');
    }
    const stats = fstatSync(fd);
    if (!stats.isFile()) return skip('not-regular-file', describeFileType(stats));
    if (stats.size > maxFileBytes) {
      return skip('too-large', `${stats.size} bytes, limit ${maxFileBytes}`);
    }
    if (stats.size === 0) return skip('empty');
    const bytes = readUpToSync(fd, stats.size);
    if (bytes.length === 0) return skip('empty');
    return { bytes, identity: fileIdentity(stats) };
  } catch (error) {
    return skip('unreadable', (error as NodeJS.ErrnoException).code ?? 'error');
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the open file is the one at `absolutePath` with no symlink on the way: O_NOFOLLOW guards
 * only the last component, and a folder may have been swapped for a link since listing. Linux
 * names the opened file in /proc; elsewhere the folder's real path is compared instead.
 */
function isOpenedAt(fd: number, absolutePath: string | Buffer): boolean {
  // Compared as bytes: a name that is not UTF-8 has no faithful string form.
  const expected = typeof absolutePath === 'string' ? Buffer.from(absolutePath) : absolutePath;
  let opened: Buffer | undefined;
  try {
    opened = readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' });
  } catch {
    opened = undefined;
  }
  if (opened !== undefined) return opened.equals(expected);
  try {
    const slash = expected.lastIndexOf(0x2f);
    const folder = expected.subarray(0, Math.max(slash, 1));
    return realpathSync(folder, { encoding: 'buffer' }).equals(folder);
  } catch {
    return false;
  }
}

/** Reads from the start of an open file until its end or `maxBytes`, whichever comes first. */
function readUpToSync(fd: number, maxBytes: number): Buffer {
  const buffer = Buffer.allocUnsafe(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    const bytesRead = readSync(fd, buffer, filled, maxBytes - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
