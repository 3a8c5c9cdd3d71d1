import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../../safety/paths/path-refusal.js';
import { copyHandle } from './copy-handle.js';

/** Files up to this size are kept in memory; larger ones are copied to a private temp folder. */
export const SPILL_AT_BYTES = 1024 * 1024;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A workspace file as it was before the turn changed it. */
export type SavedFile =
  | {
      kind: 'absent';
      relativePath: string;
      /** Folders the change may create, deepest first, removed again on undo when empty. */
      missingFolders: string[];
    }
  | { kind: 'file'; relativePath: string; mode: number; bytes: Buffer }
  | { kind: 'spilled'; relativePath: string; mode: number; spillPath: string };

/**
 * Saves what `absolutePath` (already confined by the tool) holds now. `spillPath` gives a fresh
 * private file for a large one. Throws if it is neither absent nor a regular file.
 */
export async function saveFile(
  realRoot: string,
  absolutePath: string,
  spillPath: () => Promise<string>,
): Promise<SavedFile> {
  const relativePath = path.relative(realRoot, absolutePath);
  let handle;
  try {
    handle = await open(absolutePath, READ_FLAGS);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    return {
      kind: 'absent',
      relativePath,
      missingFolders: await findMissingFolders(realRoot, relativePath),
    };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`${relativePath} is not a regular file`);
    const mode = stats.mode & 0o7777;
    if (stats.size <= SPILL_AT_BYTES)
      return { kind: 'file', relativePath, mode, bytes: await handle.readFile() };
    const target = await spillPath();
    const copy = await open(target, 'wx', 0o600);
    try {
      await copyHandle(handle, copy);
    } finally {
      await copy.close();
    }
    return { kind: 'spilled', relativePath, mode, spillPath: target };
  } finally {
    await handle.close();
  }
}

async function findMissingFolders(realRoot: string, relativePath: string): Promise<string[]> {
  const missing: string[] = [];
  for (let folder = path.dirname(relativePath); folder !== '.'; folder = path.dirname(folder)) {
    const exists = await lstat(path.join(realRoot, folder)).then(
      () => true,
      () => false,
    );
    if (exists) break;
    missing.push(folder);
  }
  return missing;
}
