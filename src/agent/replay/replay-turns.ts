import type { AgentSession, TurnOptions } from '../agent-session.js';
import type { AgentEvent } from '../events.js';
import type { RecordedTurn } from './recorded-turns.js';
import type { ReplayModelClient } from './replay-model-client.js';

/**
 * Runs a saved session's turns again, each with its recorded prompt, the agent answering from `replay`
 * (the session's client). Each turn ends with its `done`; a turn that used fewer answers than were
 * recorded ends as an error, and after a divergence or the user's cancel no further turn is run (a
 * recorded cancel or failure ends its turn as it did, and the next turn is replayed, as chat went on).
 */
export async function* replayTurns(
  agent: AgentSession,
  replay: ReplayModelClient,
  turns: readonly RecordedTurn[],
  options: TurnOptions,
): AsyncGenerator<AgentEvent, void> {
  for (const turn of turns) {
    // A recorded cancel aborts this turn only, as the user's Ctrl-C did; the user's own ends the replay.
    const recordedCancel = new AbortController();
    const signal = options.signal
      ? AbortSignal.any([options.signal, recordedCancel.signal])
      : recordedCancel.signal;
    replay.startTurn(turn, () => recordedCancel.abort());
    let done: Extract<AgentEvent, { type: 'done' }> | undefined;
    for await (const event of agent.runTurn(turn.prompt, { ...options, signal })) {
      if (event.type === 'done') done = event;
      else yield event;
    }
    if (done === undefined) return;
    const isUserCancel = options.signal?.aborted === true;
    const unused = isUserCancel ? undefined : replay.checkTurnEnded();
    if (unused !== undefined) {
      const message = `${unused.message} (${unused.hint ?? ''})`;
      yield { type: 'error', kind: 'replay', message };
      done = { ...done, stopReason: 'error', notice: unused.message };
    }
    yield done;
    if (replay.hasDiverged || isUserCancel) return;
  }
}
