import path from 'node:path';
import type { Message, Usage } from '../../providers/types.js';
import type { TodoItem } from '../tools/tool-types.js';
import { newSessionId } from './new-session-id.js';
import { loadWorkspaceSessions, realWorkspacePath } from './load-workspace-sessions.js';
import { selectSession } from './select-session.js';
import {
  CREATE_FLAGS,
  SessionFileWriter,
  appendLine,
  prepareForAppend,
} from './session-file-writer.js';
import { ensureSessionDir, workspaceSessionDir } from './session-paths.js';
import { SESSION_FORMAT_VERSION, type SessionRecord, type SessionWriter } from './session-types.js';

/** One line of `oy sessions`. */
export interface SessionSummary {
  id: string;
  /** 1 is the newest. */
  number: number;
  name?: string;
  file: string;
  workspace: string;
  model: string;
  createdAt: string;
  updatedAt: string;
  firstPrompt: string;
  turns: number;
  costUsd: number | null;
}

/** A session ready to continue; `messages` is already a valid transcript. */
export interface LoadedSession {
  summary: SessionSummary;
  messages: Message[];
  todos: TodoItem[];
  turns: number;
  usage: Usage;
  costUsd: number | null;
}

/** Starts a new session file for this workspace; its first line is the `session` record. */
export async function createSession(options: {
  stateDir: string;
  workspaceRoot: string;
  model: string;
  oyVersion: string;
  name?: string;
  now?: () => Date;
}): Promise<SessionWriter> {
  const now = options.now ?? (() => new Date());
  const workspace = await realWorkspacePath(options.workspaceRoot);
  const dir = workspaceSessionDir(options.stateDir, workspace);
  await ensureSessionDir(options.stateDir, dir);
  const createdAt = now();
  const id = newSessionId(createdAt);
  const header: SessionRecord = {
    type: 'session',
    version: SESSION_FORMAT_VERSION,
    id,
    workspace,
    model: options.model,
    createdAt: createdAt.toISOString(),
    oyVersion: options.oyVersion,
    ...(options.name === undefined ? {} : { name: options.name }),
  };
  const file = path.join(dir, `${id}.jsonl`);
  await appendLine(file, JSON.stringify(header) + '\n', true, CREATE_FLAGS);
  return new SessionFileWriter({ id, file, now });
}

/** This workspace's sessions, newest first (number 1); unreadable files are left out. */
export async function listSessions(
  stateDir: string,
  workspaceRoot: string,
): Promise<SessionSummary[]> {
  return (await loadWorkspaceSessions(stateDir, workspaceRoot)).map((loaded) => loaded.summary);
}

/**
 * Loads one session of this workspace: `latest`, a number from `oy sessions`, an id, a unique id
 * prefix, or a name (the newest with that name). A UsageError says what matched when none or several do.
 */
export async function loadSession(
  stateDir: string,
  workspaceRoot: string,
  selector: string,
): Promise<LoadedSession> {
  return selectSession(await loadWorkspaceSessions(stateDir, workspaceRoot), selector);
}

/** Reopens a loaded session's file for appending; whatever a crashed turn left after the last finished one is abandoned. */
export async function openSession(
  loaded: LoadedSession,
  now: () => Date = () => new Date(),
): Promise<SessionWriter> {
  const { id, file } = loaded.summary;
  const writer = new SessionFileWriter({ id, file, now });
  // A torn last line must not swallow the next record.
  const { isTorn } = await prepareForAppend(file);
  await writer.append({ type: 'resumed', at: now().toISOString() }, true, isTorn);
  return writer;
}
