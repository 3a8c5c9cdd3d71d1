import type { Stats } from 'node:fs';
import { isSecretBearingFile } from '../../safety/secret-files.js';
import type { CandidateFile, LedgerEntry, ReviewSkip, SecretFile, SkipReason } from '../types.js';
import type { ListedPath } from './collect-types.js';
import { describeFileType, describeHardLink } from './describe-file-type.js';
import { fileIdentity } from './file-identity.js';
import { skipEntry } from './skip-entry.js';

export type StatVerdict =
  | { kind: 'candidate'; candidate: CandidateFile }
  | { kind: 'skip'; entry: LedgerEntry; secretFile?: SecretFile };

/**
 * Decides a listed path from its lstat result, before anything is read: whether its name marks
 * it secret, what kind of entry it is, whether another name links to it, then whether it is too
 * large to review (it is still read for secrets, in windows). `reviewSkip` is the path's own.
 */
export function classifyStats(
  listed: ListedPath,
  absolutePath: string | Buffer,
  stats: Stats | NodeJS.ErrnoException,
  reviewSkip: ReviewSkip | null,
  maxFileBytes: number,
): StatVerdict {
  const { path } = listed;
  const skip = (reason: SkipReason, detail?: string, shown = path): StatVerdict => ({
    kind: 'skip',
    entry: skipEntry(shown, reason, detail),
  });
  // First, whatever the work tree holds: a secret-bearing file git tracks is committed even
  // when deleted or replaced by a symlink here, and none is ever opened.
  const isDirectory = !(stats instanceof Error) && stats.isDirectory();
  if (!isDirectory && isSecretBearingFile(path)) {
    return {
      kind: 'skip',
      entry: skipEntry(path, 'secret-file'),
      secretFile: { path, isTracked: listed.isTracked },
    };
  }
  if (stats instanceof Error) {
    // ENOTDIR: an ancestor became a file; either way the path is no longer there.
    if (stats.code === 'ENOENT' || stats.code === 'ENOTDIR') return skip('missing');
    return skip('unreadable', stats.code ?? stats.message);
  }
  if (stats.isSymbolicLink()) return skip('symlink');
  if (stats.isDirectory()) return skip('not-regular-file', 'directory', `${path}/`);
  if (!stats.isFile()) return skip('not-regular-file', describeFileType(stats));
  if (stats.nlink > 1) return skip('hard-link', describeHardLink(stats.nlink));
  if (stats.size === 0) return skip('empty');
  const sizeSkip =
    stats.size > maxFileBytes
      ? { reason: 'too-large' as const, detail: `${stats.size} bytes, limit ${maxFileBytes}` }
      : null;
  const skipReview = reviewSkip ?? sizeSkip;
  return {
    kind: 'candidate',
    candidate: {
      path,
      absolutePath,
      size: stats.size,
      isTracked: listed.isTracked,
      identity: fileIdentity(stats).key,
      ...(skipReview === null ? {} : { reviewSkip: skipReview }),
    },
  };
}
