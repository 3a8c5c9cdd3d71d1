import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { isInsideRoot } from '../../safety/paths/path-input.js';
import { listGitConfigPaths } from './read-git-config-paths.js';
import type { GitEntry } from './scan-workspace.js';

/** One bwrap mount over the workspace: a git directory bound onto itself, or a file made read-only. */
export interface GitMount {
  kind: 'bind' | 'ro-bind';
  path: string;
}

/** What the workspace's git control files looked like before a command, for the review after it. */
export interface GitSnapshot {
  /** Each `.git` entry with a signature that changes when it is replaced or re-pointed. */
  entries: ReadonlyMap<string, string>;
  /** Protected git directories, and whether each already had a `commondir` file. */
  gitDirs: ReadonlyMap<string, boolean>;
  /** Paths git would read if they appeared (a dangling `gitdir:` target, a missing include). */
  watched: readonly string[];
}

export interface GitControlPlan {
  mounts: GitMount[];
  snapshot: GitSnapshot;
}

/** Folders git reads hooks and settings from; made (empty, as `git init` makes them) when missing. */
const CONTROL_FOLDERS = ['hooks', 'info', 'modules', 'worktrees'];
/** Legacy remote definitions, read-only where they exist (git reads them for unnamed remotes). */
const LEGACY_FOLDERS = ['branches', 'remotes'];
/** Files of a linked work tree's git directory that say where its settings are. */
const WORKTREE_FILES = ['commondir', 'gitdir', 'config.worktree'];
/** Includes nest at most this deep in oy's reading (git's own limit is 10). */
const MAX_INCLUDE_DEPTH = 10;

/**
 * The mounts that keep every git control file of the workspace read-only while the rest of each
 * git directory stays writable (git writes `index.lock` and renames it, so commits still work):
 * each git directory bound onto itself (so it cannot be renamed away), then read-only `config`,
 * `config.worktree`, `hooks/`, `info/`, `modules/` (each submodule's git directory inside bound
 * writable again and protected the same way), `worktrees/` (likewise, with `commondir`, `gitdir`
 * and `config.worktree` read-only), a `gitdir:` file, included config files and a `core.hooksPath`
 * folder inside the workspace. bwrap can only cover what exists, so missing control folders are
 * made empty first (what `git init` makes) and a missing `config` an empty file; what cannot be made
 * without changing git's answers (a `commondir`, a missing include, a dangling `gitdir:` target) is
 * checked after the command by `reviewGitControl`.
 */
export async function planGitControl(
  workspace: string,
  gitEntries: readonly GitEntry[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<GitControlPlan> {
  const mounts: GitMount[] = [];
  const entries = new Map<string, string>();
  const gitDirs = new Map<string, boolean>();
  const watched: string[] = [];
  const inWorkspace = (target: string) => isInsideRoot(workspace, target);
  const readOnly = (target: string) => {
    if (existsSync(target) && inWorkspace(target)) mounts.push({ kind: 'ro-bind', path: target });
  };

  const protectConfigFile = async (file: string, top: string, depth = 0): Promise<void> => {
    readOnly(file);
    if (depth > MAX_INCLUDE_DEPTH || !existsSync(file)) return;
    const found = await listGitConfigPaths(file, env);
    if (found.hasWorktreeConfig && path.basename(file) === 'config') {
      // git reads config.worktree now: a missing one is made empty, so it can be made read-only.
      ensureFile(path.join(path.dirname(file), 'config.worktree'));
    }
    for (const hooksPath of found.hooksPaths) {
      // git runs hooks from the top of the work tree, so a relative hooks folder is read from there.
      const folder = path.resolve(top, hooksPath);
      if (!inWorkspace(folder)) continue;
      ensureFolder(folder);
      readOnly(realOr(folder));
    }
    for (const include of found.includes) {
      const target = path.resolve(path.dirname(file), include);
      if (!inWorkspace(target)) continue;
      if (existsSync(target)) await protectConfigFile(realOr(target), top, depth + 1);
      else watched.push(target);
    }
  };

  /** `top`: the work tree the git directory serves (its `.git` entry's folder, else the workspace). */
  const protectGitDir = async (gitDir: string, top: string): Promise<void> => {
    if (gitDirs.has(gitDir) || !inWorkspace(gitDir)) return;
    gitDirs.set(gitDir, existsSync(path.join(gitDir, 'commondir')));
    mounts.push({ kind: 'bind', path: gitDir });
    if (existsSync(path.join(gitDir, 'commondir'))) {
      // A linked work tree's git directory: its settings live in the common directory.
      for (const name of WORKTREE_FILES) await protectConfigFile(path.join(gitDir, name), top);
      const common = readCommonDir(gitDir);
      if (common !== undefined) await protectGitDir(common, top);
      return;
    }
    for (const name of CONTROL_FOLDERS) ensureFolder(path.join(gitDir, name));
    ensureFile(path.join(gitDir, 'config'));
    await protectConfigFile(path.join(gitDir, 'config'), top);
    await protectConfigFile(path.join(gitDir, 'config.worktree'), top);
    for (const name of ['hooks', 'info', ...LEGACY_FOLDERS]) readOnly(path.join(gitDir, name));
    readOnly(path.join(gitDir, 'modules'));
    for (const submodule of findSubmoduleGitDirs(path.join(gitDir, 'modules')))
      await protectGitDir(submodule, workspace);
    readOnly(path.join(gitDir, 'worktrees'));
    const config = path.join(gitDir, 'config');
    const { hasWorktreeConfig } = await listGitConfigPaths(config, env);
    for (const worktree of listFolders(path.join(gitDir, 'worktrees'))) {
      mounts.push({ kind: 'bind', path: worktree });
      if (hasWorktreeConfig) ensureFile(path.join(worktree, 'config.worktree'));
      for (const name of WORKTREE_FILES) await protectConfigFile(path.join(worktree, name), top);
    }
  };

  for (const entry of gitEntries) {
    entries.set(entry.path, signatureOf(entry.path));
    const top = path.dirname(entry.path);
    if (entry.kind === 'folder') await protectGitDir(entry.path, top);
    else if (entry.kind === 'file') {
      readOnly(entry.path);
      const target = readGitDirPointer(entry.path);
      if (target === undefined) continue;
      if (existsSync(target)) await protectGitDir(realOr(target), top);
      else if (inWorkspace(target)) watched.push(target);
    } else {
      const target = realOrUndefined(entry.path);
      if (target !== undefined && isFolder(target)) await protectGitDir(target, top);
    }
  }
  return { mounts, snapshot: { entries, gitDirs, watched } };
}

/**
 * A `.git` entry's identity: a folder's inode (git changes its content on every commit; the
 * sandbox cannot swap the folder itself), a file's inode and times, a link's target.
 */
export function signatureOf(entryPath: string): string {
  try {
    const stats = lstatSync(entryPath);
    if (stats.isSymbolicLink()) return `link:${readlinkSync(entryPath)}`;
    if (stats.isDirectory()) return `folder:${stats.ino}`;
    return `file:${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch {
    return 'gone';
  }
}

/** The git directory a `gitdir:` file names, resolved against the file's folder. */
export function readGitDirPointer(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8').slice(0, 4096);
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    return match?.[1] === undefined ? undefined : path.resolve(path.dirname(file), match[1]);
  } catch {
    return undefined;
  }
}

function readCommonDir(gitDir: string): string | undefined {
  try {
    const text = readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    return text === '' ? undefined : realOr(path.resolve(gitDir, text));
  } catch {
    return undefined;
  }
}

/** Git directories of submodules under `modules/` (names may hold slashes, and nest). */
export function findSubmoduleGitDirs(modules: string): string[] {
  const found: string[] = [];
  const stack = listFolders(modules);
  while (stack.length > 0) {
    const folder = stack.pop() ?? modules;
    if (existsSync(path.join(folder, 'HEAD'))) found.push(folder);
    else stack.push(...listFolders(folder));
  }
  return found.sort();
}

function listFolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(folder, entry.name));
  } catch {
    return [];
  }
}

function ensureFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch {
    // Not ours to make (another owner's repository): the command cannot make it either.
  }
}

function ensureFile(file: string): void {
  if (existsSync(file)) return;
  try {
    closeSync(openSync(file, 'a'));
  } catch {
    // As above.
  }
}

function isFolder(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

function realOrUndefined(target: string): string | undefined {
  try {
    return realpathSync(target);
  } catch {
    return undefined;
  }
}

function realOr(target: string): string {
  return realOrUndefined(target) ?? target;
}
