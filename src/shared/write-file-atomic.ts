import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export interface WriteFileAtomicOptions {
  /** File mode for a new file; 0o644 by default, 0o600 for private state. */
  mode?: number;
  /** Mode for parent directories created on the way. */
  dirMode?: number;
}

/**
 * Writes to a temporary file beside the destination, then renames it into place,
 * so a crash or a full disk never leaves a half-written file where the old one was.
 */
export async function writeFileAtomic(
  filePath: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const dir = path.dirname(filePath);
  await mkdir(dir, {
    recursive: true,
    ...(options.dirMode === undefined ? {} : { mode: options.dirMode }),
  });
  const temp = path.join(dir, `.${path.basename(filePath)}.${randomBytes(6).toString('hex')}.tmp`);
  // O_EXCL and O_NOFOLLOW: never write through a link or into a file someone else created.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(temp, flags, options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    await rename(temp, filePath);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}
