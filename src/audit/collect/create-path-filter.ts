import type { LedgerEntry } from '../types.js';
import type { ListedPath } from './collect-types.js';
import { DEFAULT_SKIP_DIRS, findDefaultSkipDir } from './default-skips.js';
import type { IgnoreMatcher } from '../../shared/ignore/ignore-matcher.js';
import { skipEntry } from './skip-entry.js';

/** Rules the audited repository brings itself: `.oyignore` and the project file's include/exclude. */
export interface RepositoryRules {
  oyignore: IgnoreMatcher;
  exclude: IgnoreMatcher;
  /** Empty means the project file narrows nothing. */
  include: IgnoreMatcher;
}

export interface PathFilterRules {
  /** The user's own `--exclude` (command line or user config). */
  exclude: IgnoreMatcher;
  /** The user's own `--include`; empty means everything is included. */
  include: IgnoreMatcher;
  /** Tracked paths changed since the `--diff` ref; null without `--diff`. */
  changed: ReadonlySet<string> | null;
  repository: RepositoryRules;
}

export const PROJECT_FILE = '.oy/config.json';

/** The checks a path earns before anything is read or stat'ed, in the order they apply. */
export interface PathFilter {
  /** Default skips and the user's own choices: a file skipped here is not the user's loss. */
  checkFile(listed: ListedPath): LedgerEntry | null;
  /**
   * The repository's own rules, applied last: a file they leave out is listed and counted as not
   * reviewed, so a repository cannot shrink its own review.
   */
  checkRepositoryRules(path: string): LedgerEntry | null;
  /** For the walker, so a skipped directory is recorded once and not entered. */
  checkDirectory(dirPath: string): LedgerEntry | null;
}

export function createPathFilter(rules: PathFilterRules): PathFilter {
  const { repository } = rules;
  return {
    checkFile(listed) {
      const { path } = listed;
      const defaultDir = findDefaultSkipDir(path);
      if (defaultDir !== undefined) return skipEntry(path, 'default-dir', defaultDir);
      if (!isPlainRelativePath(path))
        return skipEntry(path, 'invalid-name', 'not a plain relative path');
      if (rules.exclude.ignores(path, false)) return skipEntry(path, 'excluded');
      if (!rules.include.isEmpty && !rules.include.ignores(path, false)) {
        return skipEntry(path, 'not-included');
      }
      // Untracked files are new, so always changed.
      if (rules.changed !== null && listed.isTracked && !rules.changed.has(path)) {
        return skipEntry(path, 'unchanged');
      }
      return null;
    },
    checkRepositoryRules(path) {
      if (repository.oyignore.ignores(path, false)) {
        return skipEntry(path, 'repository-ignore', '.oyignore');
      }
      if (repository.exclude.ignores(path, false)) {
        return skipEntry(path, 'project-exclude', `audit.exclude in ${PROJECT_FILE}`);
      }
      if (!repository.include.isEmpty && !repository.include.ignores(path, false)) {
        return skipEntry(path, 'project-exclude', `not in audit.include of ${PROJECT_FILE}`);
      }
      return null;
    },
    checkDirectory(dirPath) {
      const name = dirPath.slice(dirPath.lastIndexOf('/') + 1);
      if (DEFAULT_SKIP_DIRS.has(name)) return skipEntry(`${dirPath}/`, 'default-dir', name);
      // The repository's rules never skip a whole directory: each file under it is listed.
      if (rules.exclude.ignores(dirPath, true)) return skipEntry(`${dirPath}/`, 'excluded');
      return null;
    },
  };
}

// Listings never produce these, but a path joined onto the root must not be able to leave it.
function isPlainRelativePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
