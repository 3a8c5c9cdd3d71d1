import { isInsideRoot as contains } from '../../safety/paths/path-input.js';
import type { KeptLink } from './find-host-sockets.js';
import type { GitMount } from './git-control.js';
import type { HiddenPath } from './hidden-paths.js';

/** Whether commands may change the workspace: plan mode's hooks and servers may not. */
export type WorkspaceAccess = 'read-write' | 'read-only';

export interface BwrapLayout {
  /** The workspace's real path: the one place commands may write (besides a private /tmp and home). */
  workspace: string;
  /** Read-write unless said otherwise. */
  workspaceAccess?: WorkspaceAccess;
  /** Home folders replaced by an empty, writable tmpfs (HOME, XDG folders outside it). */
  homes?: readonly string[];
  /** Places inside those homes bound back read-only: toolchains, caches, the user's `agent.homePaths`. */
  visible?: readonly string[];
  /** Git directories bound writable again and their control files read-only (git-control.ts). */
  gitMounts?: readonly GitMount[];
  /** Secret-bearing files covered with `maskSource` (an unreadable empty file). */
  masked?: readonly string[];
  maskSource?: string;
  /** Credential places: a second line of defence inside what is visible. */
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
  /** Where the command starts: the workspace unless said otherwise (an MCP server's `cwd`). */
  chdir?: string;
}

/**
 * bwrap options (without the command): everything read-only, an empty throw-away home with the
 * toolchain places bound back read-only, the workspace writable (read-only in plan mode) with its
 * git control files read-only and its secret-bearing files unreadable, a private /tmp, runtime
 * folders emptied, credential places and host sockets covered, no capabilities (bwrap started by
 * root would otherwise hand them on, and they undo every mount), no network unless allowed. Order
 * matters: later mounts cover earlier ones, so the homes come before what is shown in them, the
 * workspace after both (a workspace in HOME stays), git's and the secrets' mounts after the
 * workspace, and the hiding last. No --new-session: Node's `detached` already gives the command
 * its own session without a terminal, and bwrap must stay in the process group the supervisor kills.
 */
export function buildBwrapArgs(layout: BwrapLayout): string[] {
  const { workspace } = layout;
  const homes = layout.homes ?? [];
  const visible = layout.visible ?? [];
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const emptied = ['/tmp', ...layout.runtimeDirs, ...homes];
  for (const dir of layout.runtimeDirs) args.push('--tmpfs', dir);
  for (const file of layout.keptFiles) args.push('--ro-bind', file, file);
  for (const link of layout.keptLinks) args.push('--symlink', link.target, link.path);
  for (const home of homes) args.push('--tmpfs', home);
  for (const place of visible) args.push('--ro-bind', place, place);
  const isReadOnly = layout.workspaceAccess === 'read-only';
  args.push(isReadOnly ? '--ro-bind' : '--bind', workspace, workspace);
  if (!isReadOnly) {
    // Sorted, so each git directory is bound before the control files inside it.
    const gitMounts = [...(layout.gitMounts ?? [])].sort((a, b) => compare(a.path, b.path));
    for (const mount of gitMounts) args.push(`--${mount.kind}`, mount.path, mount.path);
  }
  // What an emptied folder already hides needs no mount of its own, unless something shows it.
  const shown = [workspace, ...visible];
  const isGone = (target: string) =>
    !shown.some((place) => contains(place, target)) && emptied.some((dir) => contains(dir, target));
  for (const file of layout.masked ?? []) {
    if (!isGone(file)) args.push('--ro-bind', layout.maskSource ?? '/dev/null', file);
  }
  const hiddenDirs: string[] = [];
  for (const hidden of layout.hidden) {
    if (contains(hidden.path, workspace) || isGone(hidden.path)) continue;
    // A hidden folder holding a shown place is gone but for that place: covering it would hide it too.
    if (visible.some((place) => place !== hidden.path && contains(hidden.path, place))) continue;
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
  args.push('--cap-drop', 'ALL', '--unshare-pid', '--unshare-ipc', '--die-with-parent');
  args.push('--chdir', layout.chdir ?? workspace);
  return args;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
