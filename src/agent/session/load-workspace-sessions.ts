import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { toPlainLine } from './plain-line.js';
import { readSessionFile } from './read-session-file.js';
import { foldSession } from './fold-session.js';
import { workspaceSessionDir } from './session-paths.js';
import type { LoadedSession } from './session-store.js';

/** Wide enough to recognise a prompt, narrow enough for one terminal line with the other columns. */
const MAX_PROMPT_CHARS = 80;

/** Every readable session of this workspace, folded, newest first and numbered from 1. */
export async function loadWorkspaceSessions(
  stateDir: string,
  workspaceRoot: string,
): Promise<LoadedSession[]> {
  const workspace = await realWorkspacePath(workspaceRoot);
  const dir = workspaceSessionDir(stateDir, workspace);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
  } catch {
    return [];
  }
  const sessions: LoadedSession[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const content = await readSessionFile(file);
    // The hash in the directory name could collide; the header says whose session it is.
    if (content === undefined || content.header.workspace !== workspace) continue;
    const { header } = content;
    const folded = foldSession(content);
    sessions.push({
      summary: {
        id: header.id,
        number: 0,
        ...(folded.name === undefined ? {} : { name: folded.name }),
        file,
        workspace,
        model: header.model,
        createdAt: header.createdAt,
        updatedAt: folded.updatedAt,
        firstPrompt: summarizePrompt(folded.firstPrompt),
        turns: folded.turns,
        costUsd: folded.costUsd,
      },
      messages: folded.messages,
      todos: folded.todos,
      turns: folded.turns,
      usage: folded.usage,
      costUsd: folded.costUsd,
    });
  }
  sessions.sort(
    (a, b) =>
      b.summary.updatedAt.localeCompare(a.summary.updatedAt) ||
      b.summary.id.localeCompare(a.summary.id),
  );
  sessions.forEach((session, index) => (session.summary.number = index + 1));
  return sessions;
}

/** The first non-blank line, cut to fit a listing. */
function summarizePrompt(text: string): string {
  const line = toPlainLine(text.split('\n').find((part) => part.trim() !== '') ?? '');
  return line.length > MAX_PROMPT_CHARS ? `${line.slice(0, MAX_PROMPT_CHARS - 1)}…` : line;
}

/** The workspace's real path, as the session header records it. */
export async function realWorkspacePath(workspaceRoot: string): Promise<string> {
  try {
    return await realpath(workspaceRoot);
  } catch {
    return path.resolve(workspaceRoot);
  }
}
