import path from 'node:path';
import type { GitHomeDirectories } from './build-git-environment.js';
import { findGitConfigValues } from './find-git-config-value.js';
import { findGlobalExcludesFile } from './find-global-excludes-file.js';
import { readSmallTextFile } from '../files/read-small-text-file.js';

/**
 * The two settings of the user's own global git config that oy's git still honours, although it
 * reads no global config file: the global excludes file and `safe.directory` (CI checkouts owned by
 * another user need it). Read as text, never through git; none can run a program.
 */
export async function readUserGitSettings(
  home: GitHomeDirectories,
  workTreeTop: string,
): Promise<string[]> {
  const settings: string[] = [];
  const excludesFile = await findGlobalExcludesFile(home, workTreeTop);
  if (excludesFile !== null) settings.push(`core.excludesFile=${excludesFile}`);
  for (const file of globalConfigFiles(home)) {
    const text = await readSmallTextFile(file);
    if (text === null) continue;
    for (const value of findGitConfigValues(text, 'safe', 'directory')) {
      settings.push(`safe.directory=${value}`);
    }
  }
  return settings;
}

/** `env` plus `settings` as GIT_CONFIG_COUNT entries: command-line scope, below oy's own `-c`. */
export function addGitConfigEntries(
  env: Readonly<Record<string, string>>,
  settings: readonly string[],
): Record<string, string> {
  const result: Record<string, string> = { ...env };
  settings.forEach((setting, index) => {
    const equals = setting.indexOf('=');
    result[`GIT_CONFIG_KEY_${index}`] = setting.slice(0, equals);
    result[`GIT_CONFIG_VALUE_${index}`] = setting.slice(equals + 1);
  });
  result.GIT_CONFIG_COUNT = String(settings.length);
  return result;
}

// In the order git reads them, so later values win as they do in git.
function globalConfigFiles(home: GitHomeDirectories): string[] {
  const homeDir = home.homeDir || undefined;
  const xdg =
    home.xdgConfigHome || (homeDir === undefined ? undefined : path.join(homeDir, '.config'));
  return [
    ...(xdg === undefined ? [] : [path.join(xdg, 'git', 'config')]),
    ...(homeDir === undefined ? [] : [path.join(homeDir, '.gitconfig')]),
  ];
}
