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

/** Why a file with other names is not read: any of them may lie outside the workspace. */
export function describeHardLink(links: number): string {
  return `${links} links: another name for this file may lie outside the workspace, so it is not read`;
}
