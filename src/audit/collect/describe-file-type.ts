import type { Stats } from 'node:fs';

/** A short name for what a non-regular directory entry is, for the ledger's detail. */
export function describeFileType(stats: Stats): string {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSymbolicLink()) return 'symlink';
  return stats.isFile() ? 'file' : 'unknown type';
}
