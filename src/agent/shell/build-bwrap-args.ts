import path from 'node:path';
import type { HiddenPath } from './hidden-paths.js';

export interface BwrapLayout {
  /** The workspace's real path: the one place commands may write (besides a private /tmp). */
  workspace: string;
  hidden: readonly HiddenPath[];
  allowNetwork: boolean;
}

/**
 * bwrap options (without the command): everything read-only, the workspace writable, a private
 * /tmp, credential places covered, no network unless allowed. Order matters: later mounts cover
 * earlier ones, so the hiding comes after the workspace (a workspace in HOME still hides ~/.ssh).
 * No --new-session: Node's `detached` already gives the command its own session without a
 * terminal, and bwrap must stay in the process group the supervisor kills.
 */
export function buildBwrapArgs(layout: BwrapLayout): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  args.push('--bind', layout.workspace, layout.workspace);
  for (const hidden of layout.hidden) {
    if (contains(hidden.path, layout.workspace)) continue;
    if (hidden.isDirectory) args.push('--tmpfs', hidden.path);
    else args.push('--ro-bind', '/dev/null', hidden.path);
  }
  if (!layout.allowNetwork) args.push('--unshare-net');
  // A PID namespace: when bwrap dies, the kernel kills everything inside, setsid or not.
  args.push('--unshare-pid', '--unshare-ipc', '--die-with-parent', '--chdir', layout.workspace);
  return args;
}

/** Whether `inner` is `outer` or lies inside it (hiding it would hide the workspace). */
function contains(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
