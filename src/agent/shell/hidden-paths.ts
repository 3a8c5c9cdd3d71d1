import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveOyPaths } from '../../config/config-paths.js';

/** Places under HOME where tools keep credentials (keys, tokens, cookies, registry logins). */
const HOME_CREDENTIAL_PATHS = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.gnupg',
  '.password-store',
  '.config/gh',
  '.config/hub',
  '.config/op',
  '.config/rclone',
  '.local/share/keyrings',
  '.terraform.d',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.netrc',
  '.authinfo',
  '.authinfo.gpg',
  '.git-credentials',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.boto',
  '.s3cfg',
  '.vault-token',
  '.claude',
  '.codex',
];

/** A path the sandbox covers: directories with an empty tmpfs, files with /dev/null. */
export interface HiddenPath {
  path: string;
  isDirectory: boolean;
}

/** The credential places (and oy's own config, state and cache) that exist for this HOME. */
export function findHiddenPaths(env: Readonly<Record<string, string | undefined>>): HiddenPath[] {
  const home = env.HOME || os.homedir();
  const oyPaths = resolveOyPaths(env);
  const configHome = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const candidates = [
    ...HOME_CREDENTIAL_PATHS.map((relative) => path.join(home, relative)),
    path.join(configHome, 'oy'),
    oyPaths.userConfigFile,
    oyPaths.stateDir,
    oyPaths.cacheDir,
  ];
  const found = new Map<string, HiddenPath>();
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    try {
      // Mount over the real place, so a symlinked ~/.ssh is hidden where it lives.
      const real = realpathSync(candidate);
      found.set(real, { path: real, isDirectory: statSync(real).isDirectory() });
    } catch {
      // Vanished or unreadable between the two calls: nothing to hide.
    }
  }
  return [...found.values()];
}
