import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { resolveWorkspacePath } from '../../../safety/paths/resolve-workspace-path.js';
import { mentionAtCursor } from './find-mentions.js';

/** What Tab does at the cursor: text to insert there, and the names to list when it is ambiguous. */
export interface Completion {
  insert: string;
  candidates: string[];
}

/** Names listed at most, so Tab in a huge folder prints a screenful, not thousands of lines. */
const MAX_CANDIDATES = 50;

/**
 * Tab after `@`: completes a workspace file or folder name (a folder gets `/`, a single file a
 * space). Only names inside the workspace are listed, never ones the Read rules refuse; dot
 * files only when a dot has been typed. Undefined when the cursor is not in an `@` word.
 */
export function createMentionCompleter(
  workspaceRoot: string,
  canRead: (relativePath: string, isFolder?: boolean) => boolean,
): (text: string, cursor: number) => Promise<Completion | undefined> {
  return async (text, cursor) => {
    const mention = mentionAtCursor(text, cursor);
    if (mention === undefined) return undefined;
    const slash = mention.typed.lastIndexOf('/');
    const folder = slash === -1 ? '' : mention.typed.slice(0, slash + 1);
    const prefix = mention.typed.slice(slash + 1);
    const resolved = resolveWorkspacePath(workspaceRoot, folder === '' ? '.' : folder, 'read');
    if (!resolved.ok) return { insert: '', candidates: [] };
    const entries = await readdir(resolved.absolutePath, { withFileTypes: true }).catch(() => []);
    const names = entries
      .filter((entry) => entry.name.startsWith(prefix))
      .filter((entry) => prefix.startsWith('.') || !entry.name.startsWith('.'))
      .filter((entry) => entry.name !== '.git')
      .map((entry) => ({ name: entry.name, isFolder: entry.isDirectory() }))
      .filter(({ name, isFolder }) => canRead(path.posix.join(folder, name), isFolder))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (names.length === 0) return { insert: '', candidates: [] };
    if (names.length === 1) {
      const only = names[0]!;
      return {
        insert: only.name.slice(prefix.length) + (only.isFolder ? '/' : ' '),
        candidates: [],
      };
    }
    const common = commonPrefix(names.map(({ name }) => name));
    return {
      insert: common.slice(prefix.length),
      candidates: names
        .slice(0, MAX_CANDIDATES)
        .map(({ name, isFolder }) => (isFolder ? `${name}/` : name)),
    };
  };
}

function commonPrefix(names: readonly string[]): string {
  let common = names[0] ?? '';
  for (const name of names) while (!name.startsWith(common)) common = common.slice(0, -1);
  return common;
}
