import { statSync } from 'node:fs';
import path from 'node:path';
import { buildGitEnvironment } from '../../shared/git/build-git-environment.js';
import { runGit } from '../../shared/git/run-git.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** The settings of one config file that name other files git reads or runs from. */
export interface GitConfigPaths {
  /** `include.path` and `includeIf.*.path` values as written (relative to the file's folder). */
  includes: string[];
  /** `core.hooksPath` values as written (relative to the work tree's top). */
  hooksPaths: string[];
  /** `extensions.worktreeConfig` is set: git reads `config.worktree` beside this file. */
  hasWorktreeConfig: boolean;
}

const PATH_KEYS =
  '^(include|includeif\\..*)\\.path$|^core\\.hookspath$|^extensions\\.worktreeconfig$';

/** Answers per file, kept while the file's identity and times are unchanged. */
const cache = new Map<string, { key: string; paths: GitConfigPaths }>();

/**
 * Reads one config file with git's own parser (`git config --file --no-includes`), so oy sees the
 * includes and hooks folder exactly as git will; values starting with `~` are left out (they are
 * in HOME, outside the workspace).
 */
export async function listGitConfigPaths(file: string, env: Environment): Promise<GitConfigPaths> {
  const key = identityOf(file);
  const cached = cache.get(file);
  if (cached !== undefined && cached.key === key) return cached.paths;
  const result = await runGit(
    ['config', '--file', file, '--no-includes', '-z', '--get-regexp', PATH_KEYS],
    { cwd: path.dirname(file), env: buildGitEnvironment(env, {}) },
  );
  const paths: GitConfigPaths = { includes: [], hooksPaths: [], hasWorktreeConfig: false };
  if (result.ok) {
    for (const record of result.stdout.toString('utf8').split('\0')) {
      const newline = record.indexOf('\n');
      if (newline < 0) continue;
      const name = record.slice(0, newline);
      const value = record.slice(newline + 1);
      if (name === 'extensions.worktreeconfig') {
        paths.hasWorktreeConfig = /^(true|yes|on|1)$/i.test(value);
        continue;
      }
      if (value === '' || value.startsWith('~')) continue;
      if (name === 'core.hookspath') paths.hooksPaths.push(value);
      else paths.includes.push(value);
    }
  }
  cache.set(file, { key, paths });
  return paths;
}

/**
 * Every setting name of a config file, lower-cased as git prints them, or undefined when git
 * cannot read the file (a broken file is as suspect as a hostile one).
 */
export async function listGitConfigNames(
  file: string,
  env: Environment,
): Promise<string[] | undefined> {
  const result = await runGit(
    ['config', '--file', file, '--no-includes', '-z', '--list', '--name-only'],
    {
      cwd: path.dirname(file),
      env: buildGitEnvironment(env, {}),
    },
  );
  if (!result.ok) return undefined;
  return result.stdout
    .toString('utf8')
    .split('\0')
    .filter((name) => name !== '');
}

function identityOf(file: string): string {
  try {
    const stats = statSync(file, { bigint: true });
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return 'missing';
  }
}
