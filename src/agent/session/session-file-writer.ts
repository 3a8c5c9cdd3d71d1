import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Message, Usage } from '../../providers/types.js';
import type { TodoItem } from '../tools/tool-types.js';
import { SESSION_FILE_MODE } from './session-paths.js';
import type { ApprovalRecord } from '../events.js';
import type {
  RecordedAnswer,
  RecordedFailure,
  SessionRecord,
  SessionWriter,
} from './session-types.js';

// O_NOFOLLOW: never append through a link someone put where the session file should be.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW;
export const CREATE_FLAGS = APPEND_FLAGS | constants.O_CREAT | constants.O_EXCL;

/**
 * Appends one JSON line per call. Each line is a single write(), so it is in the kernel once the call
 * resolves and survives a kill -9; `endTurn` also syncs to disk, so a finished turn survives a power cut.
 * Calls are queued, so concurrent ones never interleave.
 */
export class SessionFileWriter implements SessionWriter {
  readonly id: string;
  readonly file: string;
  private readonly now: () => Date;
  private queue: Promise<void> = Promise.resolve();

  constructor(options: { id: string; file: string; now: () => Date }) {
    this.id = options.id;
    this.file = options.file;
    this.now = options.now;
  }

  appendMessage(turn: number, message: Message): Promise<void> {
    return this.append({ type: 'message', at: this.stamp(), turn, message });
  }

  recordAnswer(turn: number, answer: RecordedAnswer): Promise<void> {
    return this.append({ type: 'answer', at: this.stamp(), turn, ...answer });
  }

  recordFailure(turn: number, failure: RecordedFailure): Promise<void> {
    return this.append({ type: 'failed_call', at: this.stamp(), turn, ...failure });
  }

  recordApproval(turn: number, approval: ApprovalRecord): Promise<void> {
    return this.append({ type: 'approval', at: this.stamp(), turn, ...approval });
  }

  endTurn(turn: number, usage: Usage, costUsd: number | null): Promise<void> {
    return this.append({ type: 'turn', at: this.stamp(), turn, usage, costUsd }, true);
  }

  saveTodos(todos: readonly TodoItem[]): Promise<void> {
    return this.append({ type: 'todos', at: this.stamp(), todos: [...todos] });
  }

  saveCompaction(
    messages: readonly Message[],
    tokensBefore: number,
    tokensAfter: number,
  ): Promise<void> {
    const at = this.stamp();
    return this.append({
      type: 'compacted',
      at,
      messages: [...messages],
      tokensBefore,
      tokensAfter,
    });
  }

  saveName(name: string): Promise<void> {
    return this.append({ type: 'name', at: this.stamp(), name });
  }

  recordUndo(turn: number): Promise<void> {
    return this.append({ type: 'undo', at: this.stamp(), turn });
  }

  /** Appends a raw record; `startsNewLine` ends a torn last line first so it cannot swallow this one. */
  append(record: SessionRecord, isDurable = false, startsNewLine = false): Promise<void> {
    const line = (startsNewLine ? '\n' : '') + JSON.stringify(record) + '\n';
    const written = this.queue.then(() => appendLine(this.file, line, isDurable));
    // A failed write is reported to its caller and does not block the ones queued after it.
    this.queue = written.catch(() => undefined);
    return written;
  }

  private stamp(): string {
    return this.now().toISOString();
  }
}

/** Appends `line` to an existing session file (or creates it when `flags` say so) with mode 0600. */
export async function appendLine(
  file: string,
  line: string,
  isDurable: boolean,
  flags: number = APPEND_FLAGS,
): Promise<void> {
  const handle = await open(file, flags, SESSION_FILE_MODE);
  try {
    await handle.writeFile(line);
    if (isDurable) await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Gets an existing session file ready for appending: tightens a loosened mode back to 0600 and says
 * whether its last line is torn (a crash mid-write), which the next record must not be glued to.
 */
export async function prepareForAppend(file: string): Promise<{ isTorn: boolean }> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const { size, mode } = await handle.stat();
    if ((mode & 0o777) !== SESSION_FILE_MODE) await handle.chmod(SESSION_FILE_MODE);
    if (size === 0) return { isTorn: false };
    const { buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
    return { isTorn: buffer[0] !== 0x0a };
  } finally {
    await handle.close();
  }
}
