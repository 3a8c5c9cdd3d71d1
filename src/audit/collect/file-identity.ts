import type { Stats } from 'node:fs';

/**
 * One version of a file, told without reading it: device, inode, size and both change times, as
 * git's index tells a clean file. The kernel sets the change time on every write and no caller
 * can set it back, so an unchanged identity means unchanged bytes, unless the file changed
 * within the clock tick it was read in (see `RACY_WINDOW_MS` in `scan/scan-cache.ts`).
 */
export interface FileIdentity {
  key: string;
  /** The later of the modification and change times, in ms since the epoch. */
  changedMs: number;
}

export function fileIdentity(stats: Stats): FileIdentity {
  return {
    key: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`,
    changedMs: Math.max(stats.mtimeMs, stats.ctimeMs),
  };
}
