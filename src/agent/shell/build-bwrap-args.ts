import { isInsideRoot as contains } from '../../safety/paths/path-input.js';
import type { KeptLink } from './find-host-sockets.js';
import type { HiddenPath } from './hidden-paths.js';

export interface BwrapLayout {
  /** The workspace's real path: the one place commands may write (besides a private /tmp). */
  workspace: string;
  hidden: readonly HiddenPath[];
  /** Folders of host sockets (/run, the user's runtime folder), replaced by an empty tmpfs. */
  runtimeDirs: readonly string[];
  /** Listening Unix sockets of host processes, each covered with /dev/null. */
  sockets: readonly string[];
  /** Files under a runtime folder that must stay readable (resolv.conf's real file, for DNS). */
  keptFiles: readonly string[];
  /** Symlinks re-created in a runtime folder (NixOS's /run/current-system). */
  keptLinks: readonly KeptLink[];
  allowNetwork: boolean;
}

/**
 * bwrap options (without the command): everything read-only, the workspace writable, a private
 * /tmp, runtime folders emptied, credential places and host sockets covered, no network unless
 * allowed. Order matters: later mounts cover earlier ones, so the workspace comes after the
 * tmpfs folders (a workspace under /tmp or /run stays) and the hiding after the workspace (a
 * workspace in HOME still hides ~/.ssh). No --new-session: Node's `detached` already gives the
 * command its own session without a terminal, and bwrap must stay in the process group the
 * supervisor kills.
 */
export function buildBwrapArgs(layout: BwrapLayout): string[] {
  const { workspace } = layout;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const emptied = ['/tmp', ...layout.runtimeDirs];
  for (const dir of layout.runtimeDirs) args.push('--tmpfs', dir);
  for (const file of layout.keptFiles) args.push('--ro-bind', file, file);
  for (const link of layout.keptLinks) args.push('--symlink', link.target, link.path);
  args.push('--bind', workspace, workspace);
  // What an emptied folder already hides needs no mount of its own, unless the workspace shows it.
  const isGone = (target: string) =>
    !contains(workspace, target) && emptied.some((dir) => contains(dir, target));
  const hiddenDirs: string[] = [];
  for (const hidden of layout.hidden) {
    if (contains(hidden.path, workspace) || isGone(hidden.path)) continue;
    if (hidden.isDirectory) {
      args.push('--tmpfs', hidden.path);
      hiddenDirs.push(hidden.path);
    } else args.push('--ro-bind', '/dev/null', hidden.path);
  }
  for (const socket of layout.sockets) {
    // The workspace's own sockets (a dev server's, a test's) keep working.
    if (contains(workspace, socket) || isGone(socket)) continue;
    if (hiddenDirs.some((dir) => contains(dir, socket))) continue;
    args.push('--ro-bind', '/dev/null', socket);
  }
  if (!layout.allowNetwork) args.push('--unshare-net');
  // A PID namespace: when bwrap dies, the kernel kills everything inside, setsid or not.
  args.push('--unshare-pid', '--unshare-ipc', '--die-with-parent', '--chdir', workspace);
  return args;
}
