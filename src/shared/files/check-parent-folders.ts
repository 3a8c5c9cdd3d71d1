import { lstatSync } from 'node:fs';
import path from 'node:path';

/** Whether every folder above a root-relative path is a real folder: not a symlink, present. */
export type ParentFolderVerdict =
  { kind: 'ok' } | { kind: 'symlink'; folder: string } | { kind: 'missing'; folder: string };

/**
 * Returns a checker for root-relative POSIX paths that lstat's each parent folder once (results
 * are remembered), so a path whose folder is a symlink is never opened through it. Opening with
 * O_NOFOLLOW only guards the last component.
 */
export function createParentFolderCheck(root: string): (relPath: string) => ParentFolderVerdict {
  const verdicts = new Map<string, ParentFolderVerdict>();
  const checkFolder = (folder: string): ParentFolderVerdict => {
    if (folder === '' || folder === '.') return { kind: 'ok' };
    const known = verdicts.get(folder);
    if (known !== undefined) return known;
    let verdict = checkFolder(path.posix.dirname(folder));
    if (verdict.kind === 'ok') {
      try {
        const stats = lstatSync(path.join(root, folder));
        if (stats.isSymbolicLink()) verdict = { kind: 'symlink', folder };
        else if (!stats.isDirectory()) verdict = { kind: 'missing', folder };
      } catch {
        verdict = { kind: 'missing', folder };
      }
    }
    verdicts.set(folder, verdict);
    return verdict;
  };
  return (relPath) => checkFolder(path.posix.dirname(relPath));
}
