import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import type { CandidateFile, CollectedFile, LedgerEntry, SkipReason } from '../types.js';
import { checkContent } from './check-content.js';
import { describeFileType, describeHardLink } from './describe-file-type.js';
import { fileIdentity, type FileIdentity } from './file-identity.js';
import { skipEntry } from './skip-entry.js';

// O_NOFOLLOW: a symlink swapped in after listing fails (ELOOP) instead of redirecting the read.
// O_NONBLOCK: a FIFO swapped in cannot block the open; fstat then rejects it.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads one candidate for review and runs the content checks: a file the model may review, or the
 * ledger entry saying why not. The file may have changed since it was listed, so its type and
 * size are checked again on the open descriptor. Never throws for a bad file. The calls are
 * synchronous because thousands of small, usually cached reads are several times faster that way
 * than through the thread pool; the scan is CPU-bound either way.
 */
export async function readCandidate(
  candidate: CandidateFile,
  maxFileBytes: number,
): Promise<{ file: CollectedFile } | { entry: LedgerEntry }> {
  const read = readCandidateBytes(candidate, maxFileBytes);
  if ('entry' in read) return Promise.resolve(read);
  const { file } = checkCandidate(candidate, read.bytes);
  if (file.reviewSkip !== undefined) {
    const { reason, detail } = file.reviewSkip;
    return Promise.resolve({ entry: skipEntry(candidate.path, reason, detail) });
  }
  return Promise.resolve({ file });
}

/**
 * The content checks on bytes `readCandidateBytes` read: the file as text, with the reason the
 * model will not review it when it will not (the candidate's own, else its content's).
 */
export function checkCandidate(candidate: CandidateFile, bytes: Buffer): { file: CollectedFile } {
  const verdict = checkContent(bytes, candidate.path);
  const reviewSkip = candidate.reviewSkip ?? verdict.reviewSkip;
  return {
    file: {
      path: candidate.path,
      text: verdict.text,
      size: bytes.length,
      isTracked: candidate.isTracked,
      ...(reviewSkip === undefined ? {} : { reviewSkip }),
    },
  };
}

/**
 * A candidate's bytes, before the content checks: what a warm scan needs to find its cache entry
 * without decoding, and the identity of the version read. Every way the open can fail, or the
 * file be the wrong kind, is a ledger entry; so is a file over `maxBytes` (`too-large`).
 */
export function readCandidateBytes(
  candidate: CandidateFile,
  maxBytes: number,
): { bytes: Buffer; identity: FileIdentity } | { entry: LedgerEntry } {
  return withOpenCandidate(candidate, (fd, stats) => {
    if (stats.size > maxBytes) {
      return {
        entry: skipEntry(candidate.path, 'too-large', `${stats.size} bytes, limit ${maxBytes}`),
      };
    }
    const bytes = readUpToSync(fd, 0, stats.size);
    if (bytes.length === 0) return { entry: skipEntry(candidate.path, 'empty') };
    return { bytes, identity: fileIdentity(stats) };
  });
}

/**
 * Opens a candidate without following a link, checks what was opened (a regular file with one
 * name, at the listed path, not empty) and hands the descriptor to `use`, closing it after.
 * Every way that fails is a ledger entry, as is an error `use` throws.
 */
export function withOpenCandidate<T>(
  candidate: CandidateFile,
  use: (fd: number, stats: Stats) => T | { entry: LedgerEntry },
): T | { entry: LedgerEntry } {
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
    // Checked on the open file too: a link made since listing must not be read through.
    if (stats.nlink > 1) return skip('hard-link', describeHardLink(stats.nlink));
    if (stats.size === 0) return skip('empty');
    return use(fd, stats);
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

/** Reads from `position` in an open file until its end or `maxBytes` bytes, whichever comes first. */
export function readUpToSync(fd: number, position: number, maxBytes: number): Buffer {
  const buffer = Buffer.allocUnsafe(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    const bytesRead = readSync(fd, buffer, filled, maxBytes - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
