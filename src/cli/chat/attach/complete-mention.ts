import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveWorkspacePath } from '../../../safety/paths/resolve-workspace-path.js';
import type { GitHomeDirectories } from '../../../shared/git/build-git-environment.js';
import { loadOuterIgnoreRules } from '../../../shared/ignore/load-outer-ignore-rules.js';
import { readSmallTextFile } from '../../../shared/files/read-small-text-file.js';
import { commonPrefix, MAX_CANDIDATES } from '../complete/complete-word.js';
import { mentionAtCursor } from './find-mentions.js';

/** What Tab does at the cursor: text to insert there, and the names to list when it is ambiguous. */
export interface Completion {
  insert: string;
  candidates: string[];
}

/** A name an `@` mention can carry: no whitespace or `@` (they end a mention), no control characters. */
const MENTIONABLE_NAME = /^[^\s@\p{Cc}\p{Cf}]+$/u;

interface Entry {
  name: string;
  isFolder: boolean;
}

/**
 * Tab after `@`: completes a workspace file or folder name (a folder gets `/`, a single file a
 * space). Listed are only names inside the workspace that git does not ignore and the Read rules
 * do not refuse; dot files only when a dot has been typed; a link only when it stays inside the
 * workspace (it is never followed out). Only names are read, never a file's content. Undefined
 * when the cursor is not in an `@` word.
 */
export function createMentionCompleter(
  workspaceRoot: string,
  canRead: (relativePath: string, isFolder?: boolean) => boolean,
  home: GitHomeDirectories = {},
): (text: string, cursor: number) => Promise<Completion | undefined> {
  return async (text, cursor) => {
    const mention = mentionAtCursor(text, cursor);
    if (mention === undefined) return undefined;
    const slash = mention.typed.lastIndexOf('/');
    const folder = slash === -1 ? '' : mention.typed.slice(0, slash + 1);
    const prefix = mention.typed.slice(slash + 1);
    const resolved = resolveWorkspacePath(workspaceRoot, folder === '' ? '.' : folder, 'read');
    if (!resolved.ok) return { insert: '', candidates: [] };
    const realFolder = resolved.relativePath === '.' ? '' : resolved.relativePath;
    const isIgnored = await loadIgnoreCheck(workspaceRoot, realFolder, home);
    const entries = await readdir(resolved.absolutePath, { withFileTypes: true }).catch(() => []);
    const names: Entry[] = [];
    for (const entry of entries) {
      const { name } = entry;
      if (!name.startsWith(prefix) || !MENTIONABLE_NAME.test(name) || name === '.git') continue;
      if (name.startsWith('.') && !prefix.startsWith('.')) continue;
      const isFolder = entry.isSymbolicLink()
        ? await linkedFolder(workspaceRoot, path.posix.join(folder, name))
        : entry.isDirectory();
      if (isFolder === undefined) continue;
      const real = path.posix.join(realFolder, name);
      if (isIgnored(real, isFolder) || !canRead(path.posix.join(folder, name), isFolder)) continue;
      names.push({ name, isFolder });
    }
    return completeNames(
      names.sort((a, b) => a.name.localeCompare(b.name)),
      prefix,
    );
  };
}

function completeNames(names: readonly Entry[], prefix: string): Completion {
  if (names.length === 0) return { insert: '', candidates: [] };
  if (names.length === 1) {
    const only = names[0]!;
    return { insert: only.name.slice(prefix.length) + (only.isFolder ? '/' : ' '), candidates: [] };
  }
  return {
    insert: commonPrefix(names.map(({ name }) => name)).slice(prefix.length),
    candidates: names
      .slice(0, MAX_CANDIDATES)
      .map(({ name, isFolder }) => (isFolder ? `${name}/` : name)),
  };
}

/** A link that stays inside the workspace: whether it leads to a folder; undefined when it leads out (or nowhere). */
async function linkedFolder(root: string, relative: string): Promise<boolean | undefined> {
  const resolved = resolveWorkspacePath(root, relative, 'read');
  if (!resolved.ok) return undefined;
  const target = await stat(resolved.absolutePath).catch(() => undefined);
  return target?.isDirectory();
}

/**
 * Whether git ignores a path (relative to the workspace's real path): the global and repository
 * excludes, the `.gitignore` files above the workspace, then those from the root down to `folder`.
 */
async function loadIgnoreCheck(
  root: string,
  folder: string,
  home: GitHomeDirectories,
): Promise<(relative: string, isFolder: boolean) => boolean> {
  const realRoot = resolveWorkspacePath(root, '.', 'read');
  if (!realRoot.ok) return () => false;
  const { matcher, prefix } = await loadOuterIgnoreRules(realRoot.absolutePath, home);
  const segments = folder === '' ? [] : folder.split('/');
  for (let depth = 0; depth <= segments.length; depth++) {
    const dir = segments.slice(0, depth).join('/');
    const text = await readSmallTextFile(path.join(realRoot.absolutePath, dir, '.gitignore'));
    if (text !== null) matcher.addFile(text, `${prefix}${dir}`.replace(/\/$/u, ''));
  }
  // A folder is ignored when it or any folder above it is (git does not descend into it).
  return (relative, isFolder) => {
    const parts = relative.split('/');
    return parts.some((_, index) =>
      matcher.ignores(
        prefix + parts.slice(0, index + 1).join('/'),
        index < parts.length - 1 || isFolder,
      ),
    );
  };
}
