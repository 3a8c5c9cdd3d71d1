import path from 'node:path';
import {
  resolveWorkspacePath,
  type PathAccess,
  type WorkspacePath,
} from '../../../safety/paths/resolve-workspace-path.js';
import { ToolFailure } from '../tool-types.js';

export interface ConfinedPath extends WorkspacePath {
  /** The workspace root's real path, which `absolutePath` lies under. */
  realRoot: string;
  /** `relativePath` with POSIX separators, '' for the root: what the walker and ignore rules use. */
  walkPath: string;
}

/** The confined path a read tool may use, or a ToolFailure naming the rule that refused it. */
export function confinePath(
  workspaceRoot: string,
  requested: string,
  access: Exclude<PathAccess, 'write'>,
): ConfinedPath {
  const resolved = resolveWorkspacePath(workspaceRoot, requested, access);
  if (!resolved.ok) throw new ToolFailure(`path ${resolved.reason}`);
  const isRoot = resolved.relativePath === '.';
  const segments = isRoot ? [] : resolved.relativePath.split(path.sep);
  return {
    ...resolved,
    realRoot: path.resolve(resolved.absolutePath, ...segments.map(() => '..')),
    walkPath: segments.join('/'),
  };
}
