import { createIgnoreMatcher } from '../../shared/ignore/ignore-matcher.js';
import { findDefaultSkipDir } from '../collect/default-skips.js';

export type HistoryPathVerdict =
  { kind: 'scan'; path: string } | { kind: 'skip'; reason: string } | { kind: 'outside' };

export interface HistoryPathRules {
  /** The workspace's place in the work tree (`git rev-parse --show-prefix`): `''` or `sub/dir/`. */
  prefix: string;
  /** The user's own `--include` and `--exclude`, as the work-tree scan applies them. */
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * Which paths of the history are looked at, by the work-tree scan's path rules: inside the
 * workspace, not in a default-skipped folder (`node_modules`, `vendor`...), and within the user's
 * `--include`/`--exclude`. The repository's own `.oyignore` does not apply: it cannot take a
 * committed secret out of the gate.
 */
export function createHistoryPathFilter(rules: HistoryPathRules) {
  const include = createIgnoreMatcher();
  include.addPatterns(rules.include);
  const exclude = createIgnoreMatcher();
  exclude.addPatterns(rules.exclude);
  return (topPath: string): HistoryPathVerdict => {
    if (!topPath.startsWith(rules.prefix)) return { kind: 'outside' };
    const path = topPath.slice(rules.prefix.length);
    if (findDefaultSkipDir(path) !== undefined) return { kind: 'skip', reason: 'default-dir' };
    if (exclude.ignores(path, false)) return { kind: 'skip', reason: 'excluded' };
    if (!include.isEmpty && !include.ignores(path, false)) {
      return { kind: 'skip', reason: 'not-included' };
    }
    return { kind: 'scan', path };
  };
}
