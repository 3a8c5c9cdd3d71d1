import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { findWorkTreeTop } from '../../shared/git/find-work-tree-top.js';
import { prepareGitEnvironment } from '../../shared/git/prepare-git-environment.js';
import { runGit, type GitResult } from '../../shared/git/run-git.js';
import { splitNul } from '../../shared/git/split-nul.js';
import { preparePrivateGitDir } from './private-git-dir.js';

/** oy's private snapshot repository over the workspace, and how to run git in it. */
export interface GitWorkTree {
  /** oy's own git directory (0700, outside the workspace); the user's `.git` is never read. */
  gitDir: string;
  /** The top of the user's work tree; git looks at files here, paths below are relative to it. */
  cwd: string;
  /** The workspace below the work tree top, POSIX, '' or ending with '/'. */
  prefix: string;
  /** The user's `info/exclude`, copied into the private git directory before each snapshot. */
  infoExcludeFile: string | null;
  env: Record<string, string>;
}

/** One path that differs between a snapshot and the work tree now. */
export interface SnapshotDifference {
  /** Relative to the workspace, POSIX. */
  path: string;
  /** Mode and blob in the snapshot, or undefined when the path is new since. */
  before?: { mode: string; blob: string };
}

/**
 * The snapshot repository for a workspace inside a git work tree (found by its `.git`, without
 * running git), kept in `gitDir`; undefined outside one. GIT_DIR and GIT_WORK_TREE are explicit,
 * so git does no discovery and reads none of the workspace's git config, attributes or hooks.
 */
export async function findGitWorkTree(
  realRoot: string,
  baseEnv: Readonly<Record<string, string | undefined>>,
  gitDir: string,
): Promise<GitWorkTree | undefined> {
  const { top, infoExcludeFile } = await findWorkTreeTop(realRoot);
  if ((await lstat(path.join(top, '.git')).catch(() => null)) === null) return undefined;
  const home = { homeDir: baseEnv.HOME, xdgConfigHome: baseEnv.XDG_CONFIG_HOME };
  const env = {
    ...(await prepareGitEnvironment(realRoot, baseEnv, home)),
    GIT_DIR: gitDir,
    GIT_WORK_TREE: top,
    GIT_INDEX_FILE: path.join(gitDir, 'index'),
    GIT_LITERAL_PATHSPECS: '1',
  };
  const relative = path.relative(top, realRoot).split(path.sep).join('/');
  const prefix = relative === '' ? '' : `${relative}/`;
  return { gitDir, cwd: top, prefix, infoExcludeFile, env };
}

/**
 * Writes the workspace part of the work tree (tracked and untracked-not-ignored files) as a git
 * tree in the private repository and returns its id. Its index persists between snapshots, so
 * files whose stat is unchanged are not hashed again.
 */
export async function snapshotWorkTree(work: GitWorkTree): Promise<string> {
  await preparePrivateGitDir(work.gitDir, work.infoExcludeFile);
  const options = { cwd: work.cwd, env: work.env };
  expectOk(await runGit(['add', '-A', '--', work.prefix || '.'], options), 'git add');
  const tree = expectOk(await runGit(['write-tree'], options), 'git write-tree');
  return tree.toString('utf8').trim();
}

/** Every workspace path whose content, mode or existence differs between two snapshot trees. */
export async function diffSnapshots(
  work: GitWorkTree,
  from: string,
  to: string,
): Promise<SnapshotDifference[]> {
  const relative = work.prefix === '' ? [] : [`--relative=${work.prefix}`];
  const output = expectOk(
    await runGit(['diff-tree', '-r', '-z', '--no-renames', ...relative, from, to], {
      cwd: work.cwd,
      env: work.env,
    }),
    'git diff-tree',
  );
  const records = splitNul(output);
  const differences: SnapshotDifference[] = [];
  for (let index = 0; index + 1 < records.length; index += 2) {
    // ":<old mode> <new mode> <old blob> <new blob> <status>", then the path.
    const [oldMode = '', , oldBlob = ''] = (records[index]?.toString('utf8') ?? '')
      .slice(1)
      .split(' ');
    const filePath = records[index + 1]?.toString('utf8') ?? '';
    differences.push(
      oldMode === '000000'
        ? { path: filePath }
        : { path: filePath, before: { mode: oldMode, blob: oldBlob } },
    );
  }
  return differences;
}

/** The bytes of a blob, as stored (no smudge filter runs). */
export async function readBlob(work: GitWorkTree, blob: string): Promise<Buffer> {
  return expectOk(
    await runGit(['cat-file', 'blob', blob], { cwd: work.cwd, env: work.env }),
    'git cat-file',
  );
}

function expectOk(result: GitResult, what: string): Buffer {
  if (!result.ok) throw new Error(`${what} failed (${result.reason}): ${result.stderr.trim()}`);
  return result.stdout;
}
