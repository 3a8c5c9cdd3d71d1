import type { Message } from '../../providers/types.js';
import type { CheckpointRecorder } from '../tools/tool-types.js';
import { Checkpoints, type UndoResult } from './checkpoints.js';

/** Checkpoints as the loop drives them: a turn starts, then tools record what they change. */
export interface TurnCheckpoints extends CheckpointRecorder {
  beginTurn(turn: number): void;
}

/** One finished turn of this chat: its number and the user message it began with. */
interface TurnStart {
  turn: number;
  first: Message;
}

/** What /undo found to do for the last turn. */
export type UndoPlan =
  | { kind: 'nothing' }
  | { kind: 'folded'; turn: number }
  | { kind: 'undo'; turn: number; keepMessages: number; files: UndoResult | undefined };

/**
 * The turns of this session that undo can take back, newest last, and the checkpoints of their files.
 * Checkpoints only remember turns that changed something, so the turns that did are tracked here:
 * undoing a turn that changed nothing must not restore an older turn's files.
 */
export class TurnHistory {
  readonly recorder: TurnCheckpoints;
  private readonly checkpoints: Checkpoints;
  private readonly starts: TurnStart[] = [];
  private readonly changedTurns = new Set<number>();
  private current = 0;

  constructor(options: {
    workspaceRoot: string;
    env: Readonly<Record<string, string | undefined>>;
  }) {
    this.checkpoints = new Checkpoints(options);
    this.recorder = {
      beginTurn: (turn) => {
        this.current = turn;
        this.checkpoints.beginTurn(turn);
      },
      beforeFileChange: async (absolutePath) => {
        await this.checkpoints.beforeFileChange(absolutePath);
        this.changedTurns.add(this.current);
      },
      beforeCommand: async () => {
        await this.checkpoints.beforeCommand();
        this.changedTurns.add(this.current);
      },
    };
  }

  /** A turn finished; `first` is the user message it began with (found again after compaction by identity). */
  record(turn: number, first: Message | undefined): void {
    if (first !== undefined) this.starts.push({ turn, first });
  }

  /** Restores the last turn's files (when it changed any) and says how many messages to keep. */
  async undoLast(messages: readonly Message[]): Promise<UndoPlan> {
    const last = this.starts.at(-1);
    if (last === undefined) return { kind: 'nothing' };
    const keepMessages = messages.indexOf(last.first);
    if (keepMessages === -1) return { kind: 'folded', turn: last.turn };
    this.starts.pop();
    let files: UndoResult | undefined;
    if (this.changedTurns.delete(last.turn)) {
      // Undefined when the checkpoints have forgotten the turn (past MAX_UNDO_TURNS).
      files = await this.checkpoints.undoLastTurn();
    }
    return { kind: 'undo', turn: last.turn, keepMessages, files };
  }

  /** The changed paths' contents before this chat changed them (null: absent), for /diff. */
  originals(): Promise<Map<string, Buffer | null>> {
    return this.checkpoints.originals();
  }

  /** Deletes spilled copies; the history is gone after this. */
  async dispose(): Promise<void> {
    this.starts.length = 0;
    this.changedTurns.clear();
    await this.checkpoints.dispose();
  }
}
