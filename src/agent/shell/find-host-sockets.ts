import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
} from 'node:fs';
import { isInsideRoot } from '../../safety/paths/path-input.js';
import path from 'node:path';

/** The kernel's list of Unix sockets in this network namespace, listening ones included. */
const PROC_NET_UNIX = '/proc/net/unix';
// In /proc/net/unix, the Flags column has __SO_ACCEPTCON (0x10000) set on a listening socket.
const LISTENING_FLAG = 0x10000;

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Folders the sandbox replaces with an empty tmpfs because host services keep their sockets
 * there: /run (system bus, docker.sock, nscd), /var/run when it is not just a link to /run, and
 * the user's runtime folder (session bus, keyring, gpg and ssh agents, podman, Wayland).
 */
export function findRuntimeDirs(env: Environment): string[] {
  const found = new Set<string>();
  for (const candidate of ['/run', '/var/run', env.XDG_RUNTIME_DIR]) {
    if (!candidate || !path.isAbsolute(candidate) || !existsSync(candidate)) continue;
    try {
      const real = realpathSync(candidate);
      if (real !== '/' && lstatSync(real).isDirectory()) found.add(real);
    } catch {
      // Vanished between the two calls: nothing to hide.
    }
  }
  return [...found];
}

/** A symlink the sandbox re-creates in an emptied folder. */
export interface KeptLink {
  path: string;
  target: string;
}

/**
 * Top-level symlinks of the runtime folders that lead out of them, such as NixOS's
 * `/run/current-system` (where `PATH` finds bash): a link holds no socket, and where it leads
 * stays as hidden as the rest of the file system.
 */
export function findKeptLinks(runtimeDirs: readonly string[]): KeptLink[] {
  const kept: KeptLink[] = [];
  for (const dir of runtimeDirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const linkPath = path.join(dir, name);
      try {
        if (!lstatSync(linkPath).isSymbolicLink()) continue;
        const target = readlinkSync(linkPath);
        const real = realpathSync(linkPath);
        const isOut = path.isAbsolute(target) && !runtimeDirs.some((d) => isInsideRoot(d, real));
        if (isOut && !isInsideRoot('/tmp', real)) kept.push({ path: linkPath, target });
      } catch {
        // Dangling or vanished: nothing worth keeping.
      }
    }
  }
  return kept;
}

/**
 * Paths of the Unix sockets host processes listen on, wherever they are (under HOME, in
 * /var/lib, beside a database), from the kernel's own list, keeping those that are sockets on
 * disk now. Abstract sockets have no path; they belong to the network namespace, which the
 * sandbox leaves unless the network is on.
 */
export function findHostSockets(listing: string = readProcNetUnix()): string[] {
  const found = new Set<string>();
  for (const line of listing.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // Num RefCount Protocol Flags Type St Inode Path: a path never starts before field 8.
    if (fields.length < 8) continue;
    const flags = Number.parseInt(fields[3] ?? '', 16);
    if (Number.isNaN(flags) || (flags & LISTENING_FLAG) === 0) continue;
    const socketPath = fields.slice(7).join(' ');
    if (!socketPath.startsWith('/')) continue;
    try {
      if (lstatSync(socketPath).isSocket()) found.add(realpathSync(socketPath));
    } catch {
      // Gone, or in a folder this user cannot search: a command cannot reach it either.
    }
  }
  return [...found];
}

function readProcNetUnix(): string {
  try {
    return readFileSync(PROC_NET_UNIX, 'utf8');
  } catch {
    // No /proc (or not Linux): the runtime folders are still hidden.
    return '';
  }
}
