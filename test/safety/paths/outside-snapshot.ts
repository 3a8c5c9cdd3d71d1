import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync, utimesSync } from 'node:fs';
import path from 'node:path';

/**
 * Every entry under `root` except `skip`, with its content digest, mtime and atime. Reading a file or
 * listing a folder moves its atime, so the snapshot puts each atime back after reading it: a later
 * snapshot then differs only if something else read, listed or wrote there.
 */
export function snapshotOutside(root: string, skip: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const visit = (full: string) => {
    const relative = path.relative(root, full) || '.';
    const stats = lstatSync(full);
    const times = `m${stats.mtimeMs} a${stats.atimeMs}`;
    if (stats.isSymbolicLink()) {
      entries[relative] = `link:${readlinkSync(full)}`;
      return;
    }
    if (stats.isDirectory()) {
      entries[relative] = `dir ${times}`;
      for (const name of readdirSync(full)) {
        const child = path.join(full, name);
        if (child !== skip) visit(child);
      }
    } else if (stats.isFile()) {
      const digest = createHash('sha256').update(readFileSync(full)).digest('hex');
      entries[relative] = `${digest} ${times}`;
    } else entries[relative] = 'special';
    utimesSync(full, stats.atime, stats.mtime);
  };
  visit(root);
  return entries;
}

/** Sets every time under `root` (except `skip`) to a whole second in the past, so restoring them is exact and a read moves them. */
export function ageTimes(root: string, skip: string, seconds: number): void {
  const visit = (full: string) => {
    const stats = lstatSync(full);
    if (stats.isSymbolicLink()) return;
    if (stats.isDirectory()) {
      for (const name of readdirSync(full)) {
        const child = path.join(full, name);
        if (child !== skip) visit(child);
      }
    }
    utimesSync(full, seconds, seconds);
  };
  visit(root);
}
