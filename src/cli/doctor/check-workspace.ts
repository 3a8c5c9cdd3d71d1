import { lstatSync } from 'node:fs';
import path from 'node:path';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import type { DoctorCheck } from './doctor-check.js';

export interface WorkspaceCheck {
  check: DoctorCheck;
  /** Null when the workspace could not be resolved. */
  root: string | null;
}

/** The workspace root (`--cwd` > OY_ROOT > current directory) and whether it sits in a git work tree. */
export function checkWorkspace(
  cwdFlag: string | undefined,
  env: NodeJS.ProcessEnv,
): WorkspaceCheck {
  let root: string;
  try {
    root = resolveWorkspaceRoot(cwdFlag, env);
  } catch (error) {
    const { hint } = error as { hint?: string };
    return {
      root: null,
      check: {
        id: 'workspace',
        status: 'fail',
        detail: (error as Error).message,
        ...(hint === undefined ? {} : { hint }),
      },
    };
  }
  const gitTop = findGitTop(root);
  const where = gitTop === null ? 'not a git work tree' : `git work tree at ${gitTop}`;
  return {
    root,
    check: {
      id: 'workspace',
      status: 'ok',
      detail: `${root} (${where})`,
      ...(gitTop === null ? { hint: 'audits walk the files themselves outside git' } : {}),
      data: { root, isGitWorkTree: gitTop !== null, gitTop },
    },
  };
}

/** Looks for `.git` (a directory, or a file in linked work trees) upwards, without running git. */
function findGitTop(root: string): string | null {
  for (let dir = root; ; dir = path.dirname(dir)) {
    try {
      const stats = lstatSync(path.join(dir, '.git'));
      if (stats.isDirectory() || stats.isFile()) return dir;
    } catch {
      // Not here: keep looking upwards.
    }
    if (path.dirname(dir) === dir) return null;
  }
}
