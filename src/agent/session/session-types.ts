import type {
  Message,
  ModelStopReason,
  ThinkingPart,
  ToolCall,
  Usage,
} from '../../providers/types.js';
import type { ApprovalRecord } from '../events.js';
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
  /** One model answer, as it came: what `oy run --replay` answers from (added later; older files have none). */
  | ({ type: 'answer'; at: string; turn: number } & RecordedAnswer)
  /** A model call that failed or was cancelled, for replay (added later; older oy skips it). */
  | ({ type: 'failed_call'; at: string; turn: number } & RecordedFailure)
  /** How the policy and the user settled one tool call (added later; older oy skips it). Never read back as a grant. */
  | ({ type: 'approval'; at: string; turn: number } & ApprovalRecord)
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

/** One model call's answer, and a fingerprint of what it answered (README.md "Replaying a run"). */
export interface RecordedAnswer {
  /** Digests of what the model was given since its previous answer (`describeAnswerInput`). */
  input: string[];
  text: string;
  thinking?: ThinkingPart[];
  toolCalls: ToolCall[];
  usage: Usage;
  stopReason: ModelStopReason;
  /**
   * How it streamed: n > 0 a text delta of the next n characters of `text`, n < 0 a thinking delta of
   * the next -n characters of the thinking text; absent when it came whole (`complete()`).
   */
  deltas?: number[];
  /** The streamed thinking text, only when it is not the thinking parts' text joined. */
  shownThinking?: string;
}

/**
 * A model call that did not finish (README.md "Replaying a run"): what it was given, what streamed
 * before it ended, and why it ended: the error the loop reported (its kind and redacted message) or a cancel.
 */
export interface RecordedFailure {
  input: string[];
  text: string;
  /** As in RecordedAnswer: the order of the text and thinking deltas that came before the end. */
  deltas: number[];
  /** The thinking text that streamed, when any did. */
  shownThinking?: string;
  failure: { type: 'cancelled' } | { type: 'error'; kind: string; message: string };
}

/** What the loop writes to; the session store implements it. Every method flushes before it resolves. */
export interface SessionWriter {
  readonly id: string;
  readonly file: string;
  appendMessage(turn: number, message: Message): Promise<void>;
  /** A model call finished: its answer, for replay. */
  recordAnswer(turn: number, answer: RecordedAnswer): Promise<void>;
  /** A model call failed or was cancelled: what came before, and why, for replay. */
  recordFailure(turn: number, failure: RecordedFailure): Promise<void>;
  /** A tool call was decided (and perhaps asked about): shown by `oy sessions show`, never read back. */
  recordApproval(turn: number, approval: ApprovalRecord): Promise<void>;
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
