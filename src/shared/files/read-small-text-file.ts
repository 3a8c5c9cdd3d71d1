import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { readUpTo } from './read-up-to.js';

// Ignore and config files are short; a larger one is not read (git's own limit is 100 MB).
export const MAX_RULES_FILE_BYTES = 1024 * 1024;

// Without O_NOFOLLOW a symlinked .gitignore could make us read any file; git too refuses them.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Reads a small regular file (never through a symlink) as UTF-8, or null when it is absent or unusable. */
export async function readSmallTextFile(
  /** Bytes for a path whose names are not all UTF-8. */
  filePath: string | Buffer,
  maxBytes = MAX_RULES_FILE_BYTES,
): Promise<string | null> {
  let handle;
  try {
    handle = await open(filePath, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return null;
    return (await readUpTo(handle, stats.size)).toString('utf8');
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
