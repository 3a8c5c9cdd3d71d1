import type { Message, Usage } from '../../providers/types.js';
import type { TodoItem } from '../tools/tool-types.js';

export const SESSION_FORMAT_VERSION = 1;

/** One JSONL line of a session file. Append-only: later lines win (a `compacted` line replaces history). */
export type SessionRecord =
  | {
      type: 'session';
      version: typeof SESSION_FORMAT_VERSION;
      id: string;
      workspace: string;
      model: string;
      createdAt: string;
      oyVersion: string;
      name?: string;
    }
  /** A finished message: user prompt (redacted), assistant answer with its tool calls, or tool results. */
  | { type: 'message'; at: string; turn: number; message: Message }
  /** A turn finished: what it cost. Everything before this line survives a crash. */
  | { type: 'turn'; at: string; turn: number; usage: Usage; costUsd: number | null }
  | { type: 'todos'; at: string; todos: TodoItem[] }
  /** Compaction replaced the history with these messages. */
  | {
      type: 'compacted';
      at: string;
      messages: Message[];
      tokensBefore: number;
      tokensAfter: number;
    }
  /** `/undo` removed turn `turn` and everything after it. */
  | { type: 'undo'; at: string; turn: number }
  | { type: 'name'; at: string; name: string }
  /** The session was reopened: records after the last finished turn (a crashed turn) are abandoned. */
  | { type: 'resumed'; at: string };

/** What the loop writes to; the session store implements it. Every method flushes before it resolves. */
export interface SessionWriter {
  readonly id: string;
  readonly file: string;
  appendMessage(turn: number, message: Message): Promise<void>;
  endTurn(turn: number, usage: Usage, costUsd: number | null): Promise<void>;
  saveTodos(todos: readonly TodoItem[]): Promise<void>;
  saveCompaction(
    messages: readonly Message[],
    tokensBefore: number,
    tokensAfter: number,
  ): Promise<void>;
  /** `/save name`: later lines win. */
  saveName(name: string): Promise<void>;
  /** `/undo`: turn `turn` and every later one leave the transcript. */
  recordUndo(turn: number): Promise<void>;
}
