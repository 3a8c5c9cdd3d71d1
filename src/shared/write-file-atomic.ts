import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { HeldFolder } from './files/held-folder.js';

export interface WriteFileAtomicOptions {
  /** File mode for a new file; 0o644 by default, 0o600 for private state. */
  mode?: number;
  /** Mode for parent directories created on the way (a path target only). */
  dirMode?: number;
}

/** A file named in a folder held open since it was checked: written there, whatever its old path leads to now. */
export interface FileInHeldFolder {
  folder: HeldFolder;
  name: string;
}

/**
 * Writes to a temporary file beside the destination, then renames it into place, so a crash or a full
 * disk never leaves a half-written file where the old one was. The destination is a path (its folders
 * made as needed) or a name in a held folder (`HeldFolder`), reached through the folder that was opened.
 */
export async function writeFileAtomic(
  target: string | FileInHeldFolder,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const { temp, destination } = await placeFiles(target, options);
  // O_EXCL and O_NOFOLLOW: never write through a link or into a file someone else created.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(temp, flags, options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    await rename(temp, destination);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

async function placeFiles(
  target: string | FileInHeldFolder,
  options: WriteFileAtomicOptions,
): Promise<{ temp: string; destination: string }> {
  const suffix = randomBytes(6).toString('hex');
  if (typeof target !== 'string') {
    const { folder, name } = target;
    return {
      temp: await folder.pathOf(`.${name}.${suffix}.tmp`),
      destination: await folder.pathOf(name),
    };
  }
  const dir = path.dirname(target);
  await mkdir(dir, {
    recursive: true,
    ...(options.dirMode === undefined ? {} : { mode: options.dirMode }),
  });
  return { temp: path.join(dir, `.${path.basename(target)}.${suffix}.tmp`), destination: target };
}
