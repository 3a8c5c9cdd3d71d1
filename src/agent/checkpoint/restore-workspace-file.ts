import { lstat, mkdir, open, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { openForWrite } from '../../safety/paths/open-for-write.js';
import { errorCode } from '../../safety/paths/path-refusal.js';
import { findProtectedComponent } from '../../safety/paths/protected-names.js';
import { resolveWorkspacePath } from '../../safety/paths/resolve-workspace-path.js';
import { copyHandle } from './copy-handle.js';

/** What a restore writes back: bytes in memory, a spilled copy, or a symbolic link's target. */
export type RestoredContent =
  | { kind: 'bytes'; bytes: Buffer; mode: number }
  | { kind: 'spilled'; spillPath: string; mode: number }
  | { kind: 'link'; target: string };

/**
 * Writes a file back inside the workspace, as a write tool would (openForWrite: confined, never
 * through a link). A link or file the turn left in its place is removed first. Returns an error, or undefined.
 */
export async function restoreWorkspaceFile(
  root: string,
  relativePath: string,
  content: RestoredContent,
): Promise<string | undefined> {
  const cleared = await removeWorkspaceEntry(root, relativePath, { linksToo: true });
  if (cleared !== undefined) return cleared;
  if (content.kind === 'link') {
    const parent = resolveWorkspacePath(root, path.dirname(relativePath) || '.', 'list');
    if (!parent.ok) return parent.reason;
    await mkdir(parent.absolutePath, { recursive: true });
    await symlink(content.target, path.join(parent.absolutePath, path.basename(relativePath)));
    return undefined;
  }
  const opened = await openForWrite(root, relativePath);
  if (!opened.ok) return opened.reason;
  try {
    if (content.kind === 'bytes') await opened.handle.writeFile(content.bytes);
    else {
      const spilled = await open(content.spillPath, 'r');
      try {
        await copyHandle(spilled, opened.handle);
      } finally {
        await spilled.close();
      }
    }
    await opened.handle.chmod(content.mode);
  } finally {
    await opened.handle.close();
  }
  return undefined;
}

/**
 * Removes a file (with `linksToo`, also a link, never what it points to) inside the workspace;
 * nothing there is fine. Folders and protected paths are refused. Returns an error, or undefined.
 */
export async function removeWorkspaceEntry(
  root: string,
  relativePath: string,
  options: { linksToo: boolean },
): Promise<string | undefined> {
  if (findProtectedComponent(relativePath.split(path.sep)) !== undefined)
    return `${relativePath} is inside .git/ or .oy/, which undo never changes`;
  const parent = resolveWorkspacePath(root, path.dirname(relativePath) || '.', 'list');
  if (!parent.ok) return parent.reason;
  const entry = path.join(parent.absolutePath, path.basename(relativePath));
  const stats = await lstat(entry).catch(() => undefined);
  if (stats === undefined) return undefined;
  if (stats.isFile() || (options.linksToo && stats.isSymbolicLink())) {
    await unlink(entry);
    return undefined;
  }
  return `${relativePath} is now a ${stats.isDirectory() ? 'folder' : 'special file'}; left as it is`;
}

/** Removes folders a turn created, deepest first, as long as they are empty. */
export async function removeEmptyFolders(root: string, folders: readonly string[]): Promise<void> {
  for (const folder of folders) {
    const resolved = resolveWorkspacePath(root, folder, 'list');
    // Only the folder itself, never one reached through a link.
    if (!resolved.ok || resolved.relativePath !== path.normalize(folder)) return;
    try {
      await rmdir(resolved.absolutePath);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return;
    }
  }
}
