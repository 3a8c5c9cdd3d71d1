import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * An empty file nobody may read (mode 000) in oy's own cache, bound over each secret-bearing file
 * so a sandboxed command gets "Permission denied" (its capabilities are dropped, root included) and
 * a write fails as read-only, rather than reading an empty file it might commit in its place.
 * `/dev/null` (empty, writes vanish) when the cache folder cannot hold it.
 */
export function ensureUnreadableFile(cacheDir: string): string {
  const folder = path.join(cacheDir, 'sandbox');
  const file = path.join(folder, 'unreadable');
  try {
    const stats = statSync(file);
    if (stats.isFile() && stats.size === 0 && (stats.mode & 0o777) === 0) return file;
  } catch {
    // Not made yet.
  }
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'w', 0o000));
    chmodSync(file, 0o000);
    return file;
  } catch {
    return '/dev/null';
  }
}
