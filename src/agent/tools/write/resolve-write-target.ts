import {
  resolveWorkspacePath,
  type WorkspacePath,
} from '../../../safety/paths/resolve-workspace-path.js';
import { ToolFailure } from '../tool-types.js';

/** Confines a path a write tool was given; a refusal becomes a ToolFailure whose message names its rule. */
export function resolveWriteTarget(workspaceRoot: string, requested: string): WorkspacePath {
  const resolved = resolveWorkspacePath(workspaceRoot, requested, 'write');
  if (!resolved.ok) throw new ToolFailure(resolved.reason);
  return resolved;
}
