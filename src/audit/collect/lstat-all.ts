import { lstatSync, type Stats } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

// Synchronous lstat measured 2-3x faster than bounded async lstat over a 5,000-file tree (no
// thread-pool round trip per file); yielding between batches keeps progress output responsive.
const LSTAT_BATCH = 2000;

/** lstat's every path (never following a symlink); a failure is returned in place of its Stats. */
export async function lstatAll(
  paths: readonly (string | Buffer)[],
): Promise<(Stats | NodeJS.ErrnoException)[]> {
  const results: (Stats | NodeJS.ErrnoException)[] = [];
  for (let index = 0; index < paths.length; index++) {
    if (index > 0 && index % LSTAT_BATCH === 0) await yieldToEventLoop();
    try {
      results.push(lstatSync(paths[index] ?? ''));
    } catch (error) {
      results.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return results;
}
