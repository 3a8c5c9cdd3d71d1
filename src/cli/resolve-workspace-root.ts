import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';

/** The workspace: `--cwd`, else OY_ROOT, else the current directory; always a real directory path. */
export function resolveWorkspaceRoot(cwdFlag: string | undefined, env: NodeJS.ProcessEnv): string {
  const requested = cwdFlag ?? env.OY_ROOT ?? process.cwd();
  const source =
    cwdFlag !== undefined
      ? '--cwd'
      : env.OY_ROOT !== undefined
        ? 'OY_ROOT'
        : 'the current directory';
  const absolute = path.resolve(String(requested));
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    throw new UsageError(`${source} ${JSON.stringify(absolute)} does not exist`, {
      hint: 'give an existing directory',
    });
  }
  if (!stats.isDirectory())
    throw new UsageError(`${source} ${JSON.stringify(absolute)} is not a directory`, {
      hint: 'give the folder of the workspace, not a file in it',
    });
  return realpathSync(absolute);
}
