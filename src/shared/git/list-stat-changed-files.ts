import { lstatSync } from 'node:fs';
import path from 'node:path';
import { createParentFolderCheck } from '../files/check-parent-folders.js';
import { decodeFileName } from '../files/decode-file-name.js';
import { runGit } from './run-git.js';

const GITLINK_MODE = '160000';
const SYMLINK_MODE = '120000';
// ce_flags bits: CE_VALID (assume-unchanged) and CE_SKIP_WORKTREE; git does not look at these files.
const UNCHECKED_FLAGS = 0x8000 | 0x4000_0000;
// The index stores sizes modulo 2^32.
const SIZE_MODULUS = 2n ** 32n;
const NS_PER_SECOND = 1_000_000_000n;
const DEBUG_BLOCK =
  /^ {2}ctime: \d+:\d+\n {2}mtime: (\d+):(\d+)\n {2}dev: -?\d+\tino: -?\d+\n {2}uid: -?\d+\tgid: -?\d+\n {2}size: (-?\d+)\tflags: ([0-9a-f]+)\n/;

interface IndexEntry {
  mode: string;
  stage: string;
  name: Buffer;
  mtimeSeconds: bigint;
  mtimeNanoseconds: bigint;
  size: bigint;
  flags: number;
}

/**
 * The tracked files under `cwd` (paths relative to it) whose work-tree file differs from the index
 * by its stat data alone: missing, of another type, another size or mtime, unmerged, or too recent
 * to tell (racy). Hashes nothing, so no clean filter can run; a file touched without changing is
 * reported too. Null when git cannot list the index.
 */
export async function listStatChangedFiles(
  cwd: string,
  env: Record<string, string>,
): Promise<string[] | null> {
  const [listing, indexPath] = await Promise.all([
    runGit(['ls-files', '-z', '--stage', '--debug'], { cwd, env }),
    runGit(['rev-parse', '--git-path', 'index'], { cwd, env }),
  ]);
  if (!listing.ok || !indexPath.ok) return null;
  const indexFile = path.resolve(cwd, indexPath.stdout.toString('utf8').trim());
  let indexMtime: bigint;
  try {
    indexMtime = lstatSync(indexFile, { bigint: true }).mtimeNs;
  } catch {
    // No index file: nothing is tracked.
    return [];
  }
  const entries = parseIndexListing(listing.stdout);
  if (entries === null) return null;
  const checkParents = createParentFolderCheck(cwd);
  const changed: string[] = [];
  for (const entry of entries) {
    if (entry.mode === GITLINK_MODE || (entry.flags & UNCHECKED_FLAGS) !== 0) continue;
    const relPath = decodeFileName(entry.name).text;
    if (entry.stage !== '0' || isStatChanged(cwd, entry, indexMtime, checkParents)) {
      if (changed.at(-1) !== relPath) changed.push(relPath);
    }
  }
  return changed;
}

function isStatChanged(
  cwd: string,
  entry: IndexEntry,
  indexMtime: bigint,
  checkParents: ReturnType<typeof createParentFolderCheck>,
): boolean {
  // git itself treats a path below a symlinked folder as deleted.
  // By the name's own bytes, so a name that is not UTF-8 is compared like any other.
  if (checkParents(entry.name).kind !== 'ok') return true;
  let stats;
  try {
    stats = lstatSync(Buffer.concat([Buffer.from(`${cwd}/`), entry.name]), { bigint: true });
  } catch {
    return true;
  }
  const isLink = entry.mode === SYMLINK_MODE;
  if (isLink ? !stats.isSymbolicLink() : !stats.isFile()) return true;
  if (stats.size % SIZE_MODULUS !== entry.size) return true;
  const seconds = stats.mtimeNs / NS_PER_SECOND;
  if (seconds % SIZE_MODULUS !== entry.mtimeSeconds) return true;
  // An index without nanoseconds (git built without USE_NSEC) compares seconds only.
  if (entry.mtimeNanoseconds !== 0n && stats.mtimeNs % NS_PER_SECOND !== entry.mtimeNanoseconds) {
    return true;
  }
  // Changed in the same instant the index was written: only hashing could tell, so say changed.
  return stats.mtimeNs >= indexMtime;
}

/**
 * Parses `ls-files -z --stage --debug`: each "<mode> <oid> <stage>\t<path>\0" then its stat
 * block. Null when the output is not in that form, so nothing is silently left out.
 */
function parseIndexListing(output: Buffer): IndexEntry[] | null {
  const entries: IndexEntry[] = [];
  const records: Buffer[] = [];
  let start = 0;
  for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
    records.push(output.subarray(start, end));
    start = end + 1;
  }
  records.push(output.subarray(start));
  let pending: Buffer | undefined = records[0];
  for (const record of records.slice(1)) {
    const text = record.toString('latin1');
    const block = DEBUG_BLOCK.exec(text);
    if (block === null || pending === undefined) return null;
    const header = pending.subarray(0, pending.indexOf(0x09)).toString('latin1').split(' ');
    entries.push({
      mode: header[0] ?? '',
      stage: header[2] ?? '',
      name: pending.subarray(pending.indexOf(0x09) + 1),
      mtimeSeconds: BigInt(block[1] ?? '0'),
      mtimeNanoseconds: BigInt(block[2] ?? '0'),
      size: BigInt.asUintN(32, BigInt(block[3] ?? '0')),
      flags: Number.parseInt(block[4] ?? '0', 16),
    });
    pending = record.subarray(block[0].length);
  }
  return pending === undefined || pending.length === 0 ? entries : null;
}
