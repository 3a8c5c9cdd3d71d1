import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { readUpTo } from '../../shared/files/read-up-to.js';

// O_NONBLOCK: a FIFO named AGENTS.md must not hang the start of every run.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** An error like fs's own, so callers can report `code` the same way. */
class NotAFileError extends Error {
  readonly code = 'ENOTFILE';
}

/**
 * Reads at most `maxBytes` from the start of a regular file, however large the file is: an
 * instructions file of 400 MB costs what its first bytes cost. Throws fs errors (ENOENT...).
 */
export async function readFileHead(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(file, OPEN_FLAGS);
  try {
    if (!(await handle.stat()).isFile()) throw new NotAFileError(`${file} is not a regular file`);
    return await readUpTo(handle, maxBytes);
  } finally {
    await handle.close();
  }
}
