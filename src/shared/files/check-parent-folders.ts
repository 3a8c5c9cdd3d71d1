import { lstatSync } from 'node:fs';
import path from 'node:path';
import { decodeFileName } from './decode-file-name.js';

/** Whether every folder above a root-relative path is a real folder: not a symlink, present. */
export type ParentFolderVerdict =
  { kind: 'ok' } | { kind: 'symlink'; folder: string } | { kind: 'missing'; folder: string };

const SLASH = 0x2f;

/**
 * Returns a checker for root-relative POSIX paths that lstat's each parent folder once (results
 * are remembered), so a path whose folder is a symlink is never opened through it. Opening with
 * O_NOFOLLOW only guards the last component. A path given as bytes (a name that is not UTF-8) is
 * checked by its bytes; the folder a verdict names is then escaped (`decodeFileName`).
 */
export function createParentFolderCheck(
  root: string,
): (relPath: string | Buffer) => ParentFolderVerdict {
  const verdicts = new Map<string, ParentFolderVerdict>();
  const rootBytes = Buffer.from(root);
  const checkFolder = (folder: Buffer): ParentFolderVerdict => {
    if (folder.length === 0 || (folder.length === 1 && folder[0] === 0x2e)) return { kind: 'ok' };
    // Keyed by the raw bytes, so two names with the same escaped text never share a verdict.
    const key = folder.toString('latin1');
    const known = verdicts.get(key);
    if (known !== undefined) return known;
    let verdict = checkFolder(parentOf(folder));
    if (verdict.kind === 'ok') {
      const shown = decodeFileName(folder).text;
      try {
        const stats = lstatSync(Buffer.concat([rootBytes, Buffer.from(path.sep), folder]));
        if (stats.isSymbolicLink()) verdict = { kind: 'symlink', folder: shown };
        else if (!stats.isDirectory()) verdict = { kind: 'missing', folder: shown };
      } catch {
        verdict = { kind: 'missing', folder: shown };
      }
    }
    verdicts.set(key, verdict);
    return verdict;
  };
  return (relPath) =>
    checkFolder(parentOf(typeof relPath === 'string' ? Buffer.from(relPath) : relPath));
}

function parentOf(relPath: Buffer): Buffer {
  const slash = relPath.lastIndexOf(SLASH);
  return slash === -1 ? Buffer.alloc(0) : relPath.subarray(0, slash);
}
