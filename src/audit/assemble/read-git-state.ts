import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { prepareGitEnvironment } from '../../shared/git/prepare-git-environment.js';
import { listStatChangedFiles } from '../../shared/git/list-stat-changed-files.js';
import { runGit } from '../../shared/git/run-git.js';

export interface GitState {
  commit: string | null;
  /** null outside a git work tree. */
  isDirty: boolean | null;
  /** The audited folder relative to the work tree's top, with a trailing `/` (`svc/api/`); `''` at the top or outside git. */
  pathFromTop: string;
}

/**
 * The commit and dirty flag for the report's Method section. Dirty means staged changes, a
 * tracked file whose stat data differs from the index, or an untracked file not ignored: no file
 * is hashed, so no clean filter a repository configures can run (`git status` would run them).
 */
export async function readGitState(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<GitState> {
  const home = { homeDir: env.HOME, xdgConfigHome: env.XDG_CONFIG_HOME };
  const gitEnv = await prepareGitEnvironment(root, env, home);
  const top = await runGit(['rev-parse', '--is-inside-work-tree', '--show-toplevel'], {
    cwd: root,
    env: gitEnv,
  });
  const [inside, topDir] = top.ok ? top.stdout.toString('utf8').split('\n') : [];
  if (inside !== 'true' || !topDir) return { commit: null, isDirty: null, pathFromTop: '' };
  const git = (args: string[]) => runGit(args, { cwd: topDir, env: gitEnv });
  const head = await git(['rev-parse', '--verify', '-q', 'HEAD']);
  const commit = head.ok ? head.stdout.toString().trim() || null : null;
  return {
    commit,
    isDirty: await isWorkTreeDirty(topDir, gitEnv, commit),
    pathFromTop: await findPathFromTop(topDir, root),
  };
}

async function isWorkTreeDirty(
  topDir: string,
  env: Record<string, string>,
  commit: string | null,
): Promise<boolean | null> {
  const git = (args: string[]) => runGit(args, { cwd: topDir, env });
  if (commit === null) {
    // No commit yet: anything in the index is a change.
    const listed = await git(['ls-files', '-z', '--cached']);
    if (!listed.ok) return null;
    if (listed.stdout.length > 0) return true;
  } else {
    // Index against HEAD reads no work-tree file; exit 1 means "differs".
    const staged = await git([
      'diff-index',
      '--cached',
      '--quiet',
      '--ignore-submodules=all',
      commit,
    ]);
    if (!staged.ok) return staged.exitCode === 1 ? true : null;
  }
  const changed = await listStatChangedFiles(topDir, env);
  if (changed === null) return null;
  if (changed.length > 0) return true;
  const untracked = await git([
    'ls-files',
    '-z',
    '--others',
    '--exclude-standard',
    '--directory',
    '--no-empty-directory',
  ]);
  return untracked.ok ? untracked.stdout.length > 0 : null;
}

/** The audited folder below the top as `a/b/` (real paths both, so a symlinked checkout agrees). */
async function findPathFromTop(topDir: string, root: string): Promise<string> {
  const [realTop, realRoot] = await Promise.all([realpath(topDir), realpath(root)]);
  const relative = path.relative(realTop, realRoot);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return '';
  return `${relative.split(path.sep).join('/')}/`;
}
