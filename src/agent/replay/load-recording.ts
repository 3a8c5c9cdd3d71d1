import { UsageError } from '../../shared/errors.js';
import { readSessionFile } from '../session/read-session-file.js';
import { loadSession, type SessionSummary } from '../session/session-store.js';
import { readRecordedTurns, type RecordedTurn } from './recorded-turns.js';

/** A saved session to replay: which one, and its finished turns with their answers. */
export interface Recording {
  summary: SessionSummary;
  turns: RecordedTurn[];
}

/**
 * Loads the session `selector` names (as `--resume` does: `latest`, a number, an id or a name) for a
 * replay; a UsageError when it holds no recorded answers to replay.
 */
export async function loadRecording(
  stateDir: string,
  workspaceRoot: string,
  selector: string,
): Promise<Recording> {
  const { summary } = await loadSession(stateDir, workspaceRoot, selector);
  const content = await readSessionFile(summary.file);
  const turns = content === undefined ? [] : readRecordedTurns(content);
  if (!turns.some((turn) => turn.answers.length > 0)) {
    throw new UsageError(`session ${summary.id} holds no recorded model answers to replay`, {
      hint: 'sessions saved by an older oy, or whose turns never finished, cannot be replayed; `oy sessions show` renders it',
    });
  }
  return { summary, turns };
}
