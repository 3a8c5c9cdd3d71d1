import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { renderDiff } from '../../../agent/index.js';
import { resolveWorkspacePath } from '../../../safety/paths/resolve-workspace-path.js';
import { neutralizeControl } from '../../../shared/terminal/neutralize-control.js';
import type { Colors } from '../../terminal.js';
import { colorizeDiff } from '../colorize-diff.js';

/** Files larger than this are named, not diffed: a diff on the screen is for reading. */
const MAX_DIFF_BYTES = 1024 * 1024;
// A link is reported as a link, never followed out of the workspace.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

type Current = { kind: 'text'; text: string } | { kind: 'absent' } | { kind: 'other'; why: string };

/**
 * /diff: what this chat changed in the workspace, as a coloured unified diff per file, from each
 * file's state before its first change (the checkpoints) to what is on disk now. Binary, large
 * and no-longer-regular files are named with the reason. Everything shown comes from the
 * workspace, so it is neutralised before it is coloured.
 */
export async function formatSessionDiff(
  workspaceRoot: string,
  originals: ReadonlyMap<string, Buffer | null>,
  c: Colors,
): Promise<string> {
  const parts: string[] = [];
  for (const relativePath of [...originals.keys()].sort()) {
    const before = originals.get(relativePath) ?? null;
    const now = await readCurrent(workspaceRoot, relativePath);
    const name = neutralizeControl(relativePath, { lineBreaks: 'show' });
    if (now.kind === 'other') {
      parts.push(c.bold(`${name}: ${neutralizeControl(now.why, { lineBreaks: 'show' })}`));
      continue;
    }
    if (before !== null && (before.length > MAX_DIFF_BYTES || before.includes(0))) {
      parts.push(c.bold(`${name}: changed (binary or over 1 MiB before)`));
      continue;
    }
    const diff = renderDiff(
      relativePath,
      before === null ? null : before.toString('utf8'),
      now.kind === 'absent' ? null : now.text,
    );
    if (diff !== '') parts.push(colorizeDiff(neutralizeControl(diff).replace(/\n$/u, ''), c));
  }
  return parts.length === 0 ? 'no changes to the workspace in this chat' : parts.join('\n');
}

async function readCurrent(workspaceRoot: string, relativePath: string): Promise<Current> {
  // A folder on the way may have become a link out of the workspace since: then nothing is read.
  const confined = resolveWorkspacePath(workspaceRoot, relativePath, 'read');
  if (!confined.ok) return { kind: 'other', why: `cannot be shown: ${confined.reason}` };
  const absolutePath = path.join(workspaceRoot, relativePath);
  let handle;
  try {
    handle = await open(absolutePath, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ELOOP') return { kind: 'other', why: 'is now a symbolic link' };
    return { kind: 'other', why: `cannot be read (${code ?? 'error'})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'other', why: 'is no longer a regular file' };
    if (stats.size > MAX_DIFF_BYTES) return { kind: 'other', why: 'changed (over 1 MiB now)' };
    const bytes = await handle.readFile();
    if (bytes.includes(0)) return { kind: 'other', why: 'changed (binary now)' };
    return { kind: 'text', text: bytes.toString('utf8') };
  } finally {
    await handle.close();
  }
}
