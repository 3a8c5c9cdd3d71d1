import type { SessionFileContent } from '../session/read-session-file.js';
import type { RecordedAnswer, RecordedFailure } from '../session/session-types.js';

/** One finished turn of a saved session: its prompt and every model call it made, in order. */
export interface RecordedTurn {
  turn: number;
  /** As saved: already redacted. */
  prompt: string;
  /** Each call's answer, or how it failed or was cancelled. */
  answers: Array<RecordedAnswer | RecordedFailure>;
}

/**
 * The turns a replay runs, in file order. A turn starts at its prompt (the first user message of a turn
 * number, or the first after a `resumed` line) and counts once its `turn` line follows, as for a resume:
 * a turn a crash cut short is left out. `/undo`, `/compact` and mode switches are not replayed.
 */
export function readRecordedTurns({ records }: SessionFileContent): RecordedTurn[] {
  const finished: RecordedTurn[] = [];
  let current: RecordedTurn | undefined;
  for (const record of records) {
    if (record.type === 'resumed') current = undefined;
    else if (record.type === 'message' && record.message.role === 'user') {
      if (current?.turn !== record.turn)
        current = { turn: record.turn, prompt: record.message.text, answers: [] };
    } else if (
      (record.type === 'answer' || record.type === 'failed_call') &&
      current?.turn === record.turn
    ) {
      const { type: _type, at: _at, turn: _turn, ...answer } = record;
      current.answers.push(answer);
    } else if (record.type === 'turn' && current?.turn === record.turn) {
      finished.push(current);
      current = undefined;
    }
  }
  return finished;
}
