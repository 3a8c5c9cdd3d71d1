import ignore, { type Ignore } from 'ignore';
import { rebaseIgnorePattern } from './rebase-ignore-pattern.js';

/** Gitignore-syntax rules over root-relative POSIX paths: our one adapter over `ignore`. */
export interface IgnoreMatcher {
  /** Adds the lines of an ignore file found in `baseDir` (root-relative, '' for the root). */
  addFile(text: string, baseDir?: string): void;
  /** Adds patterns given on the command line, relative to the root. */
  addPatterns(patterns: readonly string[]): void;
  ignores(path: string, isDirectory: boolean): boolean;
  readonly isEmpty: boolean;
}

export function createIgnoreMatcher(): IgnoreMatcher {
  // Git matches case-sensitively unless core.ignoreCase says otherwise.
  const rules: Ignore = ignore({ ignoreCase: false });
  let isEmpty = true;
  const add = (patterns: string[]): void => {
    if (patterns.length === 0) return;
    rules.add(patterns);
    isEmpty = false;
  };
  return {
    addFile(text, baseDir = '') {
      const patterns: string[] = [];
      for (const line of text.split('\n')) {
        const pattern = rebaseIgnorePattern(line, baseDir);
        if (pattern !== null) patterns.push(pattern);
      }
      add(patterns);
    },
    addPatterns(patterns) {
      add(patterns.filter((pattern) => pattern.trim() !== ''));
    },
    ignores(path, isDirectory) {
      if (isEmpty) return false;
      try {
        return rules.ignores(isDirectory ? `${path}/` : path);
      } catch {
        // `ignore` rejects paths it cannot test (absolute, "./x"); such a path matches nothing.
        return false;
      }
    },
    get isEmpty() {
      return isEmpty;
    },
  };
}
