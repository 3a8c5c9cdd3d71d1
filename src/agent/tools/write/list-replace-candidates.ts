import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrUndefined } from '../../../safety/paths/path-input.js';
import { findProtectedComponent } from '../../../safety/paths/protected-names.js';
import { resolveWorkspacePath } from '../../../safety/paths/resolve-workspace-path.js';
import { loadWalkRules } from '../read/load-walk-rules.js';
import { walkWorkspace } from '../read/walk-workspace.js';
import type { ToolContext } from '../tool-types.js';
import { ToolFailure } from '../tool-types.js';
import { createGlobFilter } from '../read/create-glob-filter.js';
import { isSecretBearingFile } from '../../../safety/secret-files.js';

/** The files a `replace` may change, and what its walk left out (counted, never named). */
export interface ReplaceCandidates {
  files: string[];
  /** Paths the Read rules refuse or ask about: a replace reads every file it walks. */
  leftOut: number;
  /** Secret-bearing files under a folder: changed only when named as the path itself. */
  secretBearing: number;
}

/**
 * The workspace files (relative, POSIX) `replace` may change under `requested`: regular files
 * not ignored by git, never through links, never under .git/ or .oy/, filtered by `glob`
 * (gitignore syntax, relative to `requested`: `*.ts` matches at any depth, `src/*.ts` does not).
 * Worked out from names alone, before the policy decides; no file's content is read.
 */
export async function listReplaceCandidates(
  context: ToolContext,
  requested: string,
  glob: string | undefined,
): Promise<ReplaceCandidates> {
  const start = resolveWorkspacePath(context.workspaceRoot, requested, 'search');
  if (!start.ok) throw new ToolFailure(start.reason);
  const startPath = start.relativePath === '.' ? '' : toPosix(start.relativePath);
  const matchesGlob = createGlobFilter(glob);
  const stats = lstatOrUndefined(start.absolutePath);
  if (stats === undefined) throw new ToolFailure(`${JSON.stringify(requested)} does not exist`);
  const found: ReplaceCandidates = { files: [], leftOut: 0, secretBearing: 0 };
  if (!stats.isDirectory()) {
    // A file named on its own is judged by the policy (Read rules, secret-bearing files ask).
    if (matchesGlob(path.posix.basename(startPath))) found.files.push(startPath);
    return found;
  }
  const realRoot = await realpath(context.workspaceRoot);
  const rules = await loadWalkRules(realRoot, startPath, context.shell.baseEnv);
  const walk = walkWorkspace({
    realRoot,
    start: startPath,
    rules,
    maxDepth: Number.POSITIVE_INFINITY,
    signal: context.signal,
    canRead: context.canRead,
    onLeftOut: () => {
      found.leftOut += 1;
    },
  });
  for await (const entry of walk) {
    if (entry.kind !== 'file') continue;
    if (findProtectedComponent(entry.path.split('/')) !== undefined) continue;
    const underStart = startPath === '' ? entry.path : entry.path.slice(startPath.length + 1);
    if (!matchesGlob(underStart)) continue;
    if (isSecretBearingFile(entry.path)) found.secretBearing += 1;
    else found.files.push(entry.path);
  }
  return found;
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}
