import type { LedgerEntry, ReviewSkip } from '../types.js';
import type { ListedPath } from './collect-types.js';
import { findDefaultSkipDir, findNameSkip } from './default-skips.js';
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
  /**
   * The user's own choices, and names no path may have: a file skipped here is not read at all,
   * and (but for an invalid name) is not the user's loss.
   */
  checkFile(listed: ListedPath): LedgerEntry | null;
  /**
   * Why the review leaves a file out by its path: a default folder (`vendor/`, `dist/`...), the
   * repository's own `.oyignore` or project file, a lockfile or `*.min.*` name. The file is still
   * read for committed secrets, and counts as not reviewed, so a repository cannot shrink its own
   * review by where it puts code.
   */
  findReviewSkip(path: string): ReviewSkip | null;
  /** For the walker, so a directory the user excluded is recorded once and not entered. */
  checkDirectory(dirPath: string): LedgerEntry | null;
}

export function createPathFilter(rules: PathFilterRules): PathFilter {
  const { repository } = rules;
  return {
    checkFile(listed) {
      const { path } = listed;
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
    findReviewSkip(path) {
      const defaultDir = findDefaultSkipDir(path);
      if (defaultDir !== undefined) return { reason: 'default-dir', detail: `${defaultDir}/` };
      if (repository.oyignore.ignores(path, false)) {
        return { reason: 'repository-ignore', detail: '.oyignore' };
      }
      if (repository.exclude.ignores(path, false)) {
        return { reason: 'project-exclude', detail: `audit.exclude in ${PROJECT_FILE}` };
      }
      if (!repository.include.isEmpty && !repository.include.ignores(path, false)) {
        return { reason: 'project-exclude', detail: `not in audit.include of ${PROJECT_FILE}` };
      }
      return findNameSkip(path) ?? null;
    },
    checkDirectory(dirPath) {
      // Default folders and the repository's rules never skip a whole directory: each file under
      // it is listed and read for secrets.
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
