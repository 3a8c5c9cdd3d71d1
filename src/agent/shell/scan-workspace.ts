import { lstatSync, readdirSync, realpathSync, statSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { isSecretBearingFile } from '../../safety/secret-files.js';

/**
 * A workspace larger than this is not listed: the sandbox refuses rather than run a command it
 * could not check for secret-bearing files (a home folder given as the workspace, say).
 */
export const MAX_SCAN_ENTRIES = 2_000_000;
/** A folder changed this close to when it was read may change again within the clock's tick. */
const RACY_NS = 2_000_000_000n;

/** What the sandbox needs to know about a workspace's names, found in one walk. */
export interface WorkspaceScan {
  /** Real paths of secret-bearing files (a link's target), and of every other name of one of them. */
  secretFiles: string[];
  /** `.git` entries at any depth: folders (git directories) and files (`gitdir:` pointers). */
  gitEntries: GitEntry[];
  /** Entries looked at, and folders read again because they changed since the last scan. */
  entries: number;
  foldersRead: number;
}

/** A `.git` name: a folder, a `gitdir:` file, or a link (git follows it to a folder or file). */
export interface GitEntry {
  path: string;
  kind: 'folder' | 'file' | 'link';
}

/** One folder as last read: enough to answer without reading it again while it is unchanged. */
interface FolderRecord {
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
  isRacy: boolean;
  subfolders: string[];
  secretNames: string[];
  gitEntries: GitEntry[];
  entries: number;
}

/** Per workspace, the folders of the last scan: a folder whose times are unchanged holds the same names. */
const lastScans = new Map<string, Map<string, FolderRecord>>();

/**
 * Every secret-bearing file (by `isSecretBearingFile`, the audit's list) and every `.git` entry in
 * the workspace, without following links into folders and without entering `.git` folders. A
 * folder is read again only when its change times moved since the last scan (git's untracked-cache
 * idea): adding, removing or renaming a name changes its folder's times. Throws past
 * MAX_SCAN_ENTRIES.
 */
export function scanWorkspace(root: string): WorkspaceScan {
  const previous = lastScans.get(root) ?? new Map<string, FolderRecord>();
  const current = new Map<string, FolderRecord>();
  const secretPaths: string[] = [];
  const gitEntries: GitEntry[] = [];
  let entries = 0;
  let foldersRead = 0;
  const stack = [root];
  while (stack.length > 0) {
    const folder = stack.pop() ?? root;
    const stats = statFolder(folder);
    if (stats === undefined) continue;
    let record = previous.get(folder);
    if (record === undefined || !isSameFolder(record, stats)) {
      record = readFolder(root, folder, stats);
      foldersRead += 1;
    }
    current.set(folder, record);
    entries += record.entries;
    if (entries > MAX_SCAN_ENTRIES)
      throw new Error(
        `the workspace holds more than ${MAX_SCAN_ENTRIES} files, too many to check for secret-bearing files before each sandboxed command`,
      );
    for (const name of record.secretNames) secretPaths.push(path.join(folder, name));
    gitEntries.push(...record.gitEntries);
    for (const name of record.subfolders) stack.push(path.join(folder, name));
  }
  lastScans.set(root, current);
  return { secretFiles: resolveSecretFiles(root, secretPaths), gitEntries, entries, foldersRead };
}

function readFolder(root: string, folder: string, stats: BigIntStats): FolderRecord {
  const record: FolderRecord = {
    mtimeNs: stats.mtimeNs,
    ctimeNs: stats.ctimeNs,
    ino: stats.ino,
    isRacy: BigInt(Date.now()) * 1_000_000n - stats.mtimeNs < RACY_NS,
    subfolders: [],
    secretNames: [],
    gitEntries: [],
    entries: 0,
  };
  let names;
  try {
    names = readdirSync(folder, { withFileTypes: true });
  } catch {
    // Unreadable to this user: a command running as the same user cannot list it either.
    return record;
  }
  record.entries = names.length;
  // The workspace-relative folder once, not path.relative per file: it is most of a cold scan's time.
  const prefix = folder === root ? '' : `${folder.slice(root.length + 1)}/`;
  for (const entry of names) {
    if (entry.name === '.git') {
      const full = path.join(folder, entry.name);
      const kind = entry.isDirectory()
        ? 'folder'
        : entry.isFile()
          ? 'file'
          : entry.isSymbolicLink()
            ? 'link'
            : undefined;
      if (kind !== undefined) record.gitEntries.push({ path: full, kind });
      continue;
    }
    if (entry.isDirectory()) record.subfolders.push(entry.name);
    else if (isSecretBearingFile(prefix + entry.name)) record.secretNames.push(entry.name);
  }
  return record;
}

function isSameFolder(record: FolderRecord, stats: BigIntStats): boolean {
  return (
    !record.isRacy &&
    record.mtimeNs === stats.mtimeNs &&
    record.ctimeNs === stats.ctimeNs &&
    record.ino === stats.ino
  );
}

function statFolder(folder: string): BigIntStats | undefined {
  try {
    const stats = lstatSync(folder, { bigint: true });
    return stats.isDirectory() ? stats : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The files to cover: each secret-bearing name's real file (a link's target, wherever it is), and,
 * when one of them has other hard links, every name in the workspace of the same file (found by a
 * second walk that looks at each file, done only then).
 */
function resolveSecretFiles(root: string, secretPaths: readonly string[]): string[] {
  const found = new Set<string>();
  const linked = new Set<string>();
  for (const secretPath of secretPaths) {
    try {
      const real = realpathSync(secretPath);
      const stats = statSync(real, { bigint: true });
      if (!stats.isFile()) continue;
      found.add(real);
      if (stats.nlink > 1n) linked.add(`${stats.dev}:${stats.ino}`);
    } catch {
      // Dangling or vanished: nothing to read, nothing to cover.
    }
  }
  if (linked.size > 0) for (const other of findOtherLinks(root, linked)) found.add(other);
  return [...found].sort();
}

function findOtherLinks(root: string, identities: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const stack = [root];
  let entries = 0;
  while (stack.length > 0) {
    const folder = stack.pop() ?? root;
    let names;
    try {
      names = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of names) {
      entries += 1;
      if (entries > MAX_SCAN_ENTRIES) return found;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') stack.push(full);
      } else if (entry.isFile()) {
        const stats = lstatSync(full, { bigint: true, throwIfNoEntry: false });
        if (stats !== undefined && identities.has(`${stats.dev}:${stats.ino}`)) found.push(full);
      }
    }
  }
  return found;
}
