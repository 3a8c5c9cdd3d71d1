import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Every entry under a directory with a digest of its content, so a test can prove nothing was written. */
export function snapshotTree(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full);
      const stats = lstatSync(full);
      if (stats.isSymbolicLink()) entries[relative] = `link:${readlinkSync(full)}`;
      else if (stats.isDirectory()) {
        entries[relative] = 'dir';
        visit(full);
      } else if (stats.isFile()) {
        entries[relative] = createHash('sha256').update(readFileSync(full)).digest('hex');
      } else entries[relative] = 'special';
    }
  };
  visit(root);
  return entries;
}
