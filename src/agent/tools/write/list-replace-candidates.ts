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

/**
 * The workspace files (relative, POSIX) `replace` may change under `requested`: regular files
 * not ignored by git, never through links, never under .git/ or .oy/, filtered by `glob`
 * (gitignore syntax, relative to `requested`: `*.ts` matches at any depth, `src/*.ts` does not).
 */
export async function listReplaceCandidates(
  context: ToolContext,
  requested: string,
  glob: string | undefined,
): Promise<string[]> {
  const start = resolveWorkspacePath(context.workspaceRoot, requested, 'search');
  if (!start.ok) throw new ToolFailure(start.reason);
  const startPath = start.relativePath === '.' ? '' : toPosix(start.relativePath);
  const matchesGlob = createGlobFilter(glob);
  const stats = lstatOrUndefined(start.absolutePath);
  if (stats === undefined) throw new ToolFailure(`${JSON.stringify(requested)} does not exist`);
  if (!stats.isDirectory()) {
    return matchesGlob(path.posix.basename(startPath)) ? [startPath] : [];
  }
  const realRoot = await realpath(context.workspaceRoot);
  const rules = await loadWalkRules(realRoot, startPath, context.shell.baseEnv);
  const files: string[] = [];
  const walk = walkWorkspace({
    realRoot,
    start: startPath,
    rules,
    maxDepth: Number.POSITIVE_INFINITY,
    signal: context.signal,
  });
  for await (const entry of walk) {
    if (entry.kind !== 'file') continue;
    if (findProtectedComponent(entry.path.split('/')) !== undefined) continue;
    const underStart = startPath === '' ? entry.path : entry.path.slice(startPath.length + 1);
    if (matchesGlob(underStart)) files.push(entry.path);
  }
  return files;
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}
