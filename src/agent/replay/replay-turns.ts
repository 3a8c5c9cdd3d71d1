import type { AgentSession, TurnOptions } from '../agent-session.js';
import type { AgentEvent } from '../events.js';
import type { RecordedTurn } from './recorded-turns.js';
import type { ReplayModelClient } from './replay-model-client.js';

/**
 * Runs a saved session's turns again, each with its recorded prompt, the agent answering from `replay`
 * (the session's client). Each turn ends with its `done`; a turn that used fewer answers than were
 * recorded ends as an error, and after a divergence or a cancel no further turn is run.
 */
export async function* replayTurns(
  agent: AgentSession,
  replay: ReplayModelClient,
  turns: readonly RecordedTurn[],
  options: TurnOptions,
): AsyncGenerator<AgentEvent, void> {
  for (const turn of turns) {
    replay.startTurn(turn);
    let done: Extract<AgentEvent, { type: 'done' }> | undefined;
    for await (const event of agent.runTurn(turn.prompt, options)) {
      if (event.type === 'done') done = event;
      else yield event;
    }
    if (done === undefined) return;
    const unused = done.stopReason === 'cancelled' ? undefined : replay.checkTurnEnded();
    if (unused !== undefined) {
      const message = `${unused.message} (${unused.hint ?? ''})`;
      yield { type: 'error', kind: 'replay', message };
      done = { ...done, stopReason: 'error', notice: unused.message };
    }
    yield done;
    if (replay.hasDiverged || done.stopReason === 'cancelled') return;
  }
}
