import os from 'node:os';
import path from 'node:path';

/** `$XDG_CONFIG_HOME/oy/instructions.md`, default `~/.config/oy/instructions.md` (README.md). */
export function userInstructionsPath(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(configHome, 'oy', 'instructions.md');
}
