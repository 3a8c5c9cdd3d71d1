import path from 'node:path';
import type { GitHomeDirectories } from './build-git-environment.js';
import { findGitConfigValue } from './find-git-config-value.js';
import { readSmallTextFile } from '../files/read-small-text-file.js';

/**
 * The global excludes file git would use: `core.excludesFile` from the user's git config
 * (`~/.gitconfig` wins over `$XDG_CONFIG_HOME/git/config`), else `$XDG_CONFIG_HOME/git/ignore`
 * or `~/.config/git/ignore`. Reads the config files; never runs git. Null when there is no home.
 */
export async function findGlobalExcludesFile(
  home: GitHomeDirectories,
  workTreeTop: string,
): Promise<string | null> {
  const homeDir = nonEmpty(home.homeDir);
  const xdgConfigHome =
    nonEmpty(home.xdgConfigHome) ??
    (homeDir === undefined ? undefined : path.join(homeDir, '.config'));
  const configFiles = [
    xdgConfigHome === undefined ? undefined : path.join(xdgConfigHome, 'git', 'config'),
    homeDir === undefined ? undefined : path.join(homeDir, '.gitconfig'),
  ];
  let configured: string | undefined;
  for (const file of configFiles) {
    if (file === undefined) continue;
    const text = await readSmallTextFile(file);
    const value = text === null ? undefined : findGitConfigValue(text, 'core', 'excludesFile');
    if (value !== undefined && value !== '') configured = value;
  }
  if (configured !== undefined) return expandPath(configured, homeDir, workTreeTop);
  return xdgConfigHome === undefined ? null : path.join(xdgConfigHome, 'git', 'ignore');
}

function expandPath(
  value: string,
  homeDir: string | undefined,
  workTreeTop: string,
): string | null {
  if (value === '~' || value.startsWith('~/')) {
    return homeDir === undefined ? null : path.join(homeDir, value.slice(1));
  }
  // git reads a relative path from where it runs: the top of the work tree.
  return path.resolve(workTreeTop, value);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
