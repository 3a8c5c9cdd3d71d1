import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildGitEnvironment } from '../../shared/git/build-git-environment.js';
import { runGit, type GitResult } from '../../shared/git/run-git.js';
import { splitNul } from '../../shared/git/split-nul.js';

/** The git work tree holding the workspace, and how to run git in it. */
export interface GitWorkTree {
  /** The workspace's real path; git runs here and every path below is relative to it. */
  cwd: string;
  /** The workspace below the work tree top, POSIX, '' or ending with '/'. */
  prefix: string;
  indexFile: string;
  env: Record<string, string>;
}

/** One path that differs between a snapshot and the work tree now. */
export interface SnapshotDifference {
  /** Relative to the workspace, POSIX. */
  path: string;
  /** Mode and blob in the snapshot, or undefined when the path is new since. */
  before?: { mode: string; blob: string };
}

// Snapshots must store bytes as they are: no line-ending conversion on the way in.
const SNAPSHOT_CONFIG = ['core.autocrlf=false', 'core.safecrlf=false'];

/** The work tree the workspace lies in, or undefined when it is not in one (or git is missing). */
export async function findGitWorkTree(
  realRoot: string,
  baseEnv: Readonly<Record<string, string | undefined>>,
): Promise<GitWorkTree | undefined> {
  const env = buildGitEnvironment(baseEnv, {
    homeDir: baseEnv.HOME,
    xdgConfigHome: baseEnv.XDG_CONFIG_HOME,
  });
  const result = await runGit(
    ['rev-parse', '--is-inside-work-tree', '--show-prefix', '--git-path', 'index'],
    { cwd: realRoot, env },
  );
  if (!result.ok) return undefined;
  const [inside, prefix, indexFile] = result.stdout.toString('utf8').split('\n');
  if (inside !== 'true' || prefix === undefined || !indexFile) return undefined;
  return { cwd: realRoot, prefix, indexFile: path.resolve(realRoot, indexFile), env };
}

/**
 * Writes the workspace part of the work tree (tracked and untracked-not-ignored files) as a git
 * tree and returns its id. Uses a private copy of the index, so the user's index, HEAD and stash
 * are never touched; only new objects are added to the object store.
 */
export async function snapshotWorkTree(work: GitWorkTree): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'oy-snapshot-'));
  try {
    const indexFile = path.join(folder, 'index');
    // Starting from the user's index lets git skip hashing files whose stat is unchanged.
    await copyFile(work.indexFile, indexFile).catch(() => undefined);
    const env = { ...work.env, GIT_INDEX_FILE: indexFile };
    const options = { cwd: work.cwd, env, config: SNAPSHOT_CONFIG };
    expectOk(await runGit(['add', '-A', '--', '.'], options), 'git add');
    const tree = expectOk(await runGit(['write-tree'], options), 'git write-tree');
    return tree.toString('utf8').trim();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
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
