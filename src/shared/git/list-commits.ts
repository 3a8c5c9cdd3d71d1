import { OyError } from '../errors.js';
import { runGit } from './run-git.js';

/** Where a history walk starts and what it leaves out. */
export interface CommitRange {
  /** Commit ids (already resolved, never user text) whose history is left out: `<ref>..HEAD`. */
  exclude: readonly string[];
}

/**
 * Every commit reachable from HEAD and from none of `range.exclude`, parents before children, so
 * a blob is met first in the commit that introduced it. Empty when HEAD names no commit yet.
 */
export async function listCommits(
  cwd: string,
  env: Record<string, string>,
  range: CommitRange,
): Promise<string[]> {
  const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, env });
  if (!head.ok) return [];
  const listed = await runGit(
    [
      'rev-list',
      '--reverse',
      '--topo-order',
      head.stdout.toString('utf8').trim(),
      ...range.exclude.map((commit) => `^${commit}`),
      '--',
    ],
    { cwd, env },
  );
  if (!listed.ok) {
    throw new OyError(`git rev-list failed (${listed.reason}): ${listed.stderr.trim()}`);
  }
  return listed.stdout.toString('latin1').split('\n').filter(isObjectId);
}

/** A full SHA-1 or SHA-256 object id in lowercase hex, as git prints them. */
export function isObjectId(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}
