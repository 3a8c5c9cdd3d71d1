import { existsSync, lstatSync, readdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { isInsideRoot } from '../../safety/paths/path-input.js';
import {
  findSubmoduleGitDirs,
  readGitDirPointer,
  signatureOf,
  type GitSnapshot,
} from './git-control.js';
import { listGitConfigNames } from './read-git-config-paths.js';
import { scanWorkspace } from './scan-workspace.js';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Settings a git directory made during a sandboxed command may hold (`git init`, `git clone`,
 * `cargo new`, `git submodule add` write these): none names a program, a hooks folder, another
 * config file or another git directory. Anything else (`core.fsmonitor`, `alias.*`, `include.*`,
 * `filter.*`, `diff.*`, `core.hooksPath`, `core.sshCommand`, …) disables the repository.
 */
const ALLOWED_NEW_SETTINGS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf)$/,
  /^remote\.[^\n]+\.(url|fetch)$/,
  /^branch\.[^\n]+\.(remote|merge)$/,
  /^submodule\.[^\n]+\.(url|active)$/,
  /^user\.(name|email)$/,
  /^init\.defaultbranch$/,
  /^extensions\.objectformat$/,
];

/**
 * After a sandboxed command: each `.git` entry it created or re-pointed anywhere in the workspace,
 * and each `commondir` it added to a protected git directory, a missing include it created, or a
 * dangling `gitdir:` target it filled. A new git directory is kept when it holds only what `git
 * init` or `git clone` writes (ALLOWED_NEW_SETTINGS, sample hooks, no `commondir`, linked work
 * trees or `config.worktree`); anything else is renamed to `<name>.oy-disabled-<n>`, so no git the
 * user runs afterwards reads it. Returns one line per change, for the model and the user.
 */
export async function reviewGitControl(
  workspace: string,
  before: GitSnapshot,
  env: Environment,
): Promise<string[]> {
  const notices: string[] = [];
  const disable = (target: string, why: string) => {
    const relative = path.relative(workspace, target) || '.';
    const moved = freeName(target);
    try {
      renameSync(target, moved);
      notices.push(
        `oy disabled ${relative}, which the sandboxed command wrote (${why}): it is now ${path.relative(workspace, moved)}; look at it before you use it`,
      );
    } catch (error) {
      notices.push(
        `WARNING: ${relative} was written by the sandboxed command (${why}) and could not be disabled (${(error as Error).message}); do not run git in ${path.dirname(relative)} until you have looked at it`,
      );
    }
  };
  for (const [gitDir, hadCommonDir] of before.gitDirs) {
    const commonDir = path.join(gitDir, 'commondir');
    if (!hadCommonDir && existsSync(commonDir))
      disable(commonDir, 'a commondir file points git at other settings');
  }
  for (const watched of before.watched) {
    if (existsSync(watched)) disable(watched, 'git reads this file or folder of settings');
  }
  const after = scanWorkspace(workspace);
  for (const entry of after.gitEntries) {
    if (before.entries.get(entry.path) === signatureOf(entry.path)) continue;
    const problem = await findNewGitProblem(workspace, entry.path, env);
    if (problem !== undefined) disable(entry.path, problem);
  }
  return notices;
}

/** Why a new or changed `.git` entry may not stay, or undefined when git would run nothing from it. */
async function findNewGitProblem(
  workspace: string,
  entryPath: string,
  env: Environment,
): Promise<string | undefined> {
  const stats = lstatSync(entryPath, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (stats.isSymbolicLink()) return 'a link named .git';
  if (stats.isFile()) {
    const target = readGitDirPointer(entryPath);
    if (target === undefined) return undefined;
    if (!isInsideRoot(workspace, target)) return 'a gitdir: file pointing out of the workspace';
    return existsSync(target) ? findGitDirProblem(target, env, 0) : undefined;
  }
  return stats.isDirectory() ? findGitDirProblem(entryPath, env, 0) : undefined;
}

async function findGitDirProblem(
  gitDir: string,
  env: Environment,
  depth: number,
): Promise<string | undefined> {
  if (depth > 4) return 'submodules nested too deep to check';
  for (const name of ['commondir', 'config.worktree'])
    if (existsSync(path.join(gitDir, name))) return `its ${name} file`;
  if (listNames(path.join(gitDir, 'worktrees')).length > 0) return 'linked work trees';
  const hooks = listNames(path.join(gitDir, 'hooks')).filter((name) => !name.endsWith('.sample'));
  if (hooks.length > 0) return `hooks (${hooks.slice(0, 3).join(', ')})`;
  const config = path.join(gitDir, 'config');
  if (existsSync(config)) {
    const names = await listGitConfigNames(config, env);
    if (names === undefined) return 'a config file git cannot read';
    const extra = names.filter((name) => !ALLOWED_NEW_SETTINGS.some((rule) => rule.test(name)));
    if (extra.length > 0) return `settings ${extra.slice(0, 3).join(', ')}`;
  }
  const modules = path.join(gitDir, 'modules');
  for (const submodule of findSubmoduleGitDirs(modules)) {
    const problem = await findGitDirProblem(submodule, env, depth + 1);
    if (problem !== undefined) return `submodule ${path.relative(modules, submodule)}: ${problem}`;
  }
  return undefined;
}

function listNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function freeName(target: string): string {
  for (let index = 1; ; index += 1) {
    const candidate = `${target}.oy-disabled-${index}`;
    if (!existsSync(candidate) && lstatSync(candidate, { throwIfNoEntry: false }) === undefined)
      return candidate;
  }
}
