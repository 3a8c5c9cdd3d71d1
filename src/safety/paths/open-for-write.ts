import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, refusePath, type PathRefusal } from './path-refusal.js';
import { resolveWorkspacePath } from './resolve-workspace-path.js';

/** Never follow a link at the last step; never block on a FIFO swapped in after the check. */
const WRITE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface OpenedForWrite {
  ok: true;
  /** Open for writing at offset 0, already emptied. The caller closes it. */
  handle: FileHandle;
  absolutePath: string;
  relativePath: string;
}

/** Points where a test can change the disk between the checks, as a racing process would. */
export interface WriteRaceHooks {
  afterResolve?: () => void | Promise<void>;
  afterMkdir?: (directory: string) => void | Promise<void>;
  beforeOpen?: () => void | Promise<void>;
}

/**
 * Opens a workspace file for writing, creating missing folders one level at a time. Each folder is
 * checked after `mkdir` (a real folder, its real path unchanged), the file is opened with
 * `O_NOFOLLOW`, and the opened file is matched against the path before it is emptied, so a link
 * swapped in after `resolveWorkspacePath` cannot redirect the write. Never throws.
 */
export async function openForWrite(
  root: string,
  requested: string,
  hooks: WriteRaceHooks = {},
): Promise<OpenedForWrite | PathRefusal> {
  const resolved = resolveWorkspacePath(root, requested, 'write');
  if (!resolved.ok) return resolved;
  try {
    await hooks.afterResolve?.();
    const realRoot = await realpath(root);
    const components = resolved.relativePath.split(path.sep);
    let parent = realRoot;
    for (const name of components.slice(0, -1)) {
      const directory = path.join(parent, name);
      try {
        await mkdir(directory);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST')
          return ioRefusal(requested, 'create a folder for', error);
      }
      await hooks.afterMkdir?.(directory);
      const changed = await describeChangedFolder(directory);
      if (changed) return refusePath('symlink-escape', requested, changed);
      parent = directory;
    }
    await hooks.beforeOpen?.();
    const changed = await describeChangedFolder(parent);
    if (changed) return refusePath('symlink-escape', requested, changed);
    return await openChecked(path.join(parent, components.at(-1) ?? ''), requested, resolved);
  } catch (error) {
    return ioRefusal(requested, 'open', error);
  }
}

/** Why `directory` can no longer be trusted as a real folder at that exact real path, or undefined. */
async function describeChangedFolder(directory: string): Promise<string | undefined> {
  const stats = await lstat(directory);
  if (stats.isSymbolicLink()) return 'passes through a folder that became a link while writing';
  if (!stats.isDirectory()) return 'passes through a folder that became a file while writing';
  if ((await realpath(directory)) !== directory)
    return 'passes through a folder that was moved while writing';
  return undefined;
}

async function openChecked(
  filePath: string,
  requested: string,
  resolved: { absolutePath: string; relativePath: string },
): Promise<OpenedForWrite | PathRefusal> {
  let handle: FileHandle;
  try {
    handle = await open(filePath, WRITE_FLAGS, 0o666);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP')
      return refusePath('symlink-write', requested, 'became a symbolic link while writing');
    if (code === 'EISDIR') return refusePath('invalid-path', requested, 'is a folder');
    if (code === 'ENXIO') return refusePath('invalid-path', requested, 'is not a regular file');
    return ioRefusal(requested, 'open', error);
  }
  const problem = await describeOpenedMismatch(handle, filePath).catch(
    (error: unknown) => `cannot be checked (${errorCode(error)})`,
  );
  if (problem) {
    await handle.close();
    return refusePath('symlink-escape', requested, problem);
  }
  // A hard link shares its content with a path that may lie outside the workspace.
  if ((await handle.stat()).nlink > 1) {
    await handle.close();
    return refusePath(
      'hard-link-write',
      requested,
      'has other hard links; writing it would change the same file under another name, maybe outside the workspace',
    );
  }
  await handle.truncate(0);
  return {
    ok: true,
    handle,
    absolutePath: resolved.absolutePath,
    relativePath: resolved.relativePath,
  };
}

/** The file opened must be a regular file and the same one the path names now, in a parent that has not moved. */
async function describeOpenedMismatch(
  handle: FileHandle,
  filePath: string,
): Promise<string | undefined> {
  const opened: Stats = await handle.stat();
  if (!opened.isFile()) return 'is not a regular file';
  const named = await lstat(filePath);
  if (named.dev !== opened.dev || named.ino !== opened.ino) return 'was replaced while writing';
  const parentChange = await describeChangedFolder(path.dirname(filePath));
  return parentChange;
}

function ioRefusal(requested: string, action: string, error: unknown): PathRefusal {
  return refusePath('io-error', requested, `could not ${action} it (${errorCode(error)})`);
}
