import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { findGitConfigValue } from '../../shared/git/find-git-config-value.js';
import { readUserGitSettings } from '../../shared/git/read-user-git-settings.js';
import { findWorkTreeTop } from '../../shared/git/find-work-tree-top.js';
import { readSmallTextFile } from '../../shared/files/read-small-text-file.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** What git inside the sandbox still needs of the user's own git config, which the empty home lacks. */
export interface SandboxGitSettings {
  /** `key=value` settings for GIT_CONFIG_* (command scope): identity, excludes file, safe.directory. */
  settings: string[];
  /** The global excludes file, shown read-only so `git add -A` leaves out what the user ignores. */
  visibleFiles: string[];
}

/**
 * The user's name and e-mail (commits by the agent need them), global excludes file and
 * `safe.directory` entries, read as text from `$XDG_CONFIG_HOME/git/config` and `~/.gitconfig`
 * (never through git, and no include followed): nothing here can name a program.
 */
export async function readSandboxGitSettings(
  env: Environment,
  workspace: string,
): Promise<SandboxGitSettings> {
  const home = { homeDir: env.HOME, xdgConfigHome: env.XDG_CONFIG_HOME };
  const settings: string[] = [];
  for (const key of ['name', 'email']) {
    const value = await readGlobalValue(env, 'user', key);
    if (value !== undefined) settings.push(`user.${key}=${value}`);
  }
  const { top } = await findWorkTreeTop(workspace);
  const userSettings = await readUserGitSettings(home, top);
  settings.push(...userSettings);
  const visibleFiles: string[] = [];
  for (const setting of userSettings) {
    if (!setting.startsWith('core.excludesFile=')) continue;
    const file = setting.slice('core.excludesFile='.length);
    if (path.isAbsolute(file) && existsSync(file)) visibleFiles.push(realpathSync(file));
  }
  return { settings, visibleFiles };
}

async function readGlobalValue(
  env: Environment,
  section: string,
  key: string,
): Promise<string | undefined> {
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME || (home ? path.join(home, '.config') : undefined);
  let value: string | undefined;
  // In the order git reads them, so ~/.gitconfig wins as it does in git.
  for (const file of [
    xdg && path.join(xdg, 'git', 'config'),
    home && path.join(home, '.gitconfig'),
  ]) {
    if (!file) continue;
    const text = await readSmallTextFile(file);
    const found = text === null ? undefined : findGitConfigValue(text, section, key);
    if (found !== undefined && !found.includes('\n')) value = found;
  }
  return value;
}
