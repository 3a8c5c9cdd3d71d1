import os from 'node:os';
import path from 'node:path';

/** The environment variables that locate oy's files; passed in so core code never reads process.env. */
export interface PathEnvironment {
  HOME?: string | undefined;
  XDG_CONFIG_HOME?: string | undefined;
  XDG_CACHE_HOME?: string | undefined;
  XDG_STATE_HOME?: string | undefined;
  OY_CONFIG?: string | undefined;
}

export interface OyPaths {
  userConfigFile: string;
  cacheDir: string;
  stateDir: string;
}

/** Resolves the user config file, cache and state directories from XDG variables and HOME. */
export function resolveOyPaths(env: PathEnvironment): OyPaths {
  const home = env.HOME || os.homedir();
  const configHome = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const cacheHome = env.XDG_CACHE_HOME || path.join(home, '.cache');
  const stateHome = env.XDG_STATE_HOME || path.join(home, '.local', 'state');
  return {
    userConfigFile: env.OY_CONFIG || path.join(configHome, 'oy', 'config.json'),
    cacheDir: path.join(cacheHome, 'oy'),
    stateDir: path.join(stateHome, 'oy'),
  };
}
