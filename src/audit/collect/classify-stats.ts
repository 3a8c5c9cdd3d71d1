import type { Stats } from 'node:fs';
import { isSecretBearingFile } from '../../safety/secret-files.js';
import type { CandidateFile, LedgerEntry, SecretFile, SkipReason } from '../types.js';
import type { ListedPath } from './collect-types.js';
import { findNameSkip } from './default-skips.js';
import { describeFileType } from './describe-file-type.js';
import { fileIdentity } from './file-identity.js';
import { skipEntry } from './skip-entry.js';

export type StatVerdict =
  | { kind: 'candidate'; candidate: CandidateFile }
  | { kind: 'skip'; entry: LedgerEntry; secretFile?: SecretFile };

/**
 * Decides a listed path from its lstat result, before anything is read: whether its name marks
 * it secret, what kind of entry it is, whether its name marks it a lockfile, minified or
 * binary, then its size.
 */
export function classifyStats(
  listed: ListedPath,
  absolutePath: string | Buffer,
  stats: Stats | NodeJS.ErrnoException,
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
  const nameSkip = findNameSkip(path);
  if (nameSkip !== undefined) return skip(nameSkip.reason, nameSkip.detail);
  if (stats.size > maxFileBytes) {
    return skip('too-large', `${stats.size} bytes, limit ${maxFileBytes}`);
  }
  if (stats.size === 0) return skip('empty');
  return {
    kind: 'candidate',
    candidate: {
      path,
      absolutePath,
      size: stats.size,
      isTracked: listed.isTracked,
      identity: fileIdentity(stats).key,
    },
  };
}
