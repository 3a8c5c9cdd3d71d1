import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Private state (SECURITY.md). */
export const SESSION_DIR_MODE = 0o700;
export const SESSION_FILE_MODE = 0o600;
/** Enough of the path's hash that two workspaces with the same folder name never share a directory. */
const WORKSPACE_HASH_CHARS = 16;
const MAX_BASENAME_CHARS = 40;

/** `<name>-<hash>`: readable in a listing, and unique per workspace real path. */
export function workspaceKey(workspaceRealPath: string): string {
  const hash = createHash('sha256').update(workspaceRealPath).digest('hex');
  const base = path
    .basename(workspaceRealPath)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, MAX_BASENAME_CHARS);
  return `${base || 'root'}-${hash.slice(0, WORKSPACE_HASH_CHARS)}`;
}

/** `<stateDir>/sessions/<workspace-key>`: where one workspace's session files live. */
export function workspaceSessionDir(stateDir: string, workspaceRealPath: string): string {
  return path.join(stateDir, 'sessions', workspaceKey(workspaceRealPath));
}

/** Creates the session directory and the oy-owned ones above it as 0700, tightening any that are looser. */
export async function ensureSessionDir(stateDir: string, sessionDir: string): Promise<void> {
  await mkdir(sessionDir, { recursive: true, mode: SESSION_DIR_MODE });
  for (const dir of [stateDir, path.dirname(sessionDir), sessionDir]) {
    // The state directory may be a link the user made; a link below it could send private files elsewhere.
    const stats = dir === stateDir ? await stat(dir) : await lstat(dir);
    if (!stats.isDirectory()) throw new Error(`${dir} is not a directory`);
    if ((stats.mode & 0o777) !== SESSION_DIR_MODE) await chmod(dir, SESSION_DIR_MODE);
  }
}
