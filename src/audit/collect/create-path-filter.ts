import type { LedgerEntry } from '../types.js';
import type { ListedPath } from './collect-types.js';
import { DEFAULT_SKIP_DIRS, findDefaultSkipDir } from './default-skips.js';
import type { IgnoreMatcher } from '../../shared/ignore/ignore-matcher.js';
import { skipEntry } from './skip-entry.js';

export interface PathFilterRules {
  oyignore: IgnoreMatcher;
  exclude: IgnoreMatcher;
  /** Empty means everything is included. */
  include: IgnoreMatcher;
  /** Tracked paths changed since the `--diff` ref; null without `--diff`. */
  changed: ReadonlySet<string> | null;
}

/** The checks a path earns before anything is read or stat'ed, in the order they apply. */
export interface PathFilter {
  checkFile(listed: ListedPath): LedgerEntry | null;
  /** For the walker, so a skipped directory is recorded once and not entered. */
  checkDirectory(dirPath: string): LedgerEntry | null;
}

export function createPathFilter(rules: PathFilterRules): PathFilter {
  const checkUserRules = (path: string, isDirectory: boolean): LedgerEntry | null => {
    const shown = isDirectory ? `${path}/` : path;
    if (rules.oyignore.ignores(path, isDirectory)) return skipEntry(shown, 'oyignore');
    if (rules.exclude.ignores(path, isDirectory)) return skipEntry(shown, 'excluded');
    return null;
  };
  return {
    checkFile(listed) {
      const { path } = listed;
      const defaultDir = findDefaultSkipDir(path);
      if (defaultDir !== undefined) return skipEntry(path, 'default-dir', defaultDir);
      if (!listed.isValidName) return skipEntry(path, 'invalid-name', 'name is not valid UTF-8');
      if (!isPlainRelativePath(path))
        return skipEntry(path, 'invalid-name', 'not a plain relative path');
      const userSkip = checkUserRules(path, false);
      if (userSkip !== null) return userSkip;
      if (!rules.include.isEmpty && !rules.include.ignores(path, false)) {
        return skipEntry(path, 'not-included');
      }
      // Untracked files are new, so always changed.
      if (rules.changed !== null && listed.isTracked && !rules.changed.has(path)) {
        return skipEntry(path, 'unchanged');
      }
      return null;
    },
    checkDirectory(dirPath) {
      const name = dirPath.slice(dirPath.lastIndexOf('/') + 1);
      if (DEFAULT_SKIP_DIRS.has(name)) return skipEntry(`${dirPath}/`, 'default-dir', name);
      return checkUserRules(dirPath, true);
    },
  };
}

// Listings never produce these, but a path joined onto the root must not be able to leave it.
function isPlainRelativePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
