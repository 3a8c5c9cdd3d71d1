import type {
  CallOptions,
  ModelClient,
  ModelRef,
  ModelRequest,
  ModelResult,
  StreamEvent,
} from '../../providers/types.js';
import { EXIT } from '../../shared/errors.js';
import { describeAnswerInput } from '../session/answer-input.js';
import { KindedCallFailure } from '../session/describe-call-failure.js';
import type { RecordedAnswer, RecordedFailure } from '../session/session-types.js';
import type { RecordedTurn } from './recorded-turns.js';
import { ReplayedFailure } from './replayed-failure.js';

const REPLAY_HINT =
  'a replay runs the tools in the workspace as it is now, under the current mode, rules and hooks: ' +
  'put the workspace back as the run found it and give the same --mode, --max-turns and --max-cost to reproduce it';

/** The replay left the recording: the recorded answers no longer fit (README.md "Replaying a run"). */
export class ReplayDiverged extends KindedCallFailure {
  constructor(message: string) {
    super(`the replay diverged: ${message}`, 'replay', EXIT.runtime, { hint: REPLAY_HINT });
  }
}

/**
 * A ModelClient that answers from a saved session's recorded answers instead of a provider: no network,
 * no key. Each call takes the turn's next answer, once what the request gives the model since its last
 * answer (the prompt, tool results with timing aside, hook feedback) matches what the recorded call was
 * given; otherwise, or when the turn has no answer left, it throws ReplayDiverged. A recorded failure
 * streams what came before it and fails the same way; a recorded cancel cancels the turn.
 */
export class ReplayModelClient implements ModelClient {
  readonly ref: ModelRef;
  #turn: RecordedTurn = { turn: 0, prompt: '', answers: [] };
  #cancelTurn: () => void = () => undefined;
  #used = 0;
  #hasDiverged = false;

  constructor(ref: ModelRef) {
    this.ref = ref;
  }

  /** Once a call diverged, the rest of the recording is not replayed. */
  get hasDiverged(): boolean {
    return this.#hasDiverged;
  }

  /**
   * The next turn's answers are served from now on; `cancel` aborts that turn's signal, as the user's
   * Ctrl-C did where the recording holds a cancelled call.
   */
  startTurn(turn: RecordedTurn, cancel: () => void = () => undefined): void {
    this.#turn = turn;
    this.#cancelTurn = cancel;
    this.#used = 0;
  }

  /** After a turn: a divergence when the replay asked for fewer answers than the recording has. */
  checkTurnEnded(): ReplayDiverged | undefined {
    const { turn, answers } = this.#turn;
    if (this.#hasDiverged || this.#used === answers.length) return undefined;
    this.#hasDiverged = true;
    return new ReplayDiverged(
      `turn ${turn} ended after ${count(this.#used, 'model call')}, and the recording has ${count(answers.length, 'answer')} for it`,
    );
  }

  async *stream(request: ModelRequest, options?: CallOptions): AsyncIterable<StreamEvent> {
    const answer = this.#take(request, options);
    if ('failure' in answer) {
      yield* streamDeltas(answer);
      this.#fail(answer, options);
    }
    yield* streamAnswer(answer);
  }

  async complete(request: ModelRequest, options?: CallOptions): Promise<ModelResult> {
    const answer = this.#take(request, options);
    if ('failure' in answer) this.#fail(answer, options);
    const { text, thinking, toolCalls, usage, stopReason } = answer;
    return { text, ...(thinking ? { thinking } : {}), toolCalls, usage, stopReason };
  }

  /** Ends a call as the recorded one ended: the same error, or a cancel of the turn. */
  #fail(recorded: RecordedFailure, options: CallOptions | undefined): never {
    const { failure } = recorded;
    if (failure.type === 'error') throw new ReplayedFailure(failure.kind, failure.message);
    this.#cancelTurn();
    options?.signal?.throwIfAborted();
    // Without a signal to abort (a caller that passed none), a cancel is an error that says so.
    throw new ReplayedFailure('aborted', 'the recorded call was cancelled here');
  }

  #take(request: ModelRequest, options: CallOptions | undefined): RecordedAnswer | RecordedFailure {
    options?.signal?.throwIfAborted();
    const { turn, answers } = this.#turn;
    const call = this.#used + 1;
    const answer = answers[this.#used];
    if (answer === undefined || this.#hasDiverged) {
      this.#hasDiverged = true;
      throw new ReplayDiverged(
        `turn ${turn} asks for model call ${call}, and the recording has ${count(answers.length, 'answer')} for it`,
      );
    }
    const difference = findDifference(describeAnswerInput(request.messages), answer.input);
    if (difference !== undefined) {
      this.#hasDiverged = true;
      throw new ReplayDiverged(
        `model call ${call} of turn ${turn}: ${difference}, so the recorded answer no longer fits`,
      );
    }
    this.#used = call;
    return answer;
  }
}

/** The first piece of input that is not as recorded, in words; undefined when all match. */
function findDifference(
  pieces: ReadonlyArray<{ label: string; digest: string }>,
  recorded: readonly string[],
): string | undefined {
  for (const [index, piece] of pieces.entries()) {
    if (index >= recorded.length) return `${piece.label} was not in the recording`;
    if (piece.digest !== recorded[index]) return `${piece.label} differs from the recording`;
  }
  if (pieces.length < recorded.length)
    return `the model is given ${pieces.length} of the ${recorded.length} things the recording gave it`;
  return undefined;
}

/** A recorded answer as the provider streamed it: the same deltas in the same order, then the rest. */
function* streamAnswer(answer: RecordedAnswer): Generator<StreamEvent> {
  const textAt = yield* streamDeltas(answer);
  // An answer that came whole (compaction's complete()) streams as one delta.
  if (textAt < answer.text.length) yield { type: 'text_delta', text: answer.text.slice(textAt) };
  for (const part of answer.thinking ?? []) yield { type: 'thinking', part };
  for (const call of answer.toolCalls) yield { type: 'tool_call', call };
  yield { type: 'usage', usage: answer.usage };
  yield { type: 'stop', reason: answer.stopReason };
}

/** The recorded text and thinking deltas in their order; returns how much of the text they covered. */
function* streamDeltas(answer: RecordedAnswer | RecordedFailure): Generator<StreamEvent, number> {
  const shownThinking =
    answer.shownThinking ??
    ('thinking' in answer ? (answer.thinking ?? []) : [])
      .map((part) => (part.type === 'thinking' ? part.text : ''))
      .join('');
  let textAt = 0;
  let thinkingAt = 0;
  for (const length of answer.deltas ?? []) {
    if (length > 0) {
      yield { type: 'text_delta', text: answer.text.slice(textAt, textAt + length) };
      textAt += length;
    } else if (length < 0) {
      yield { type: 'thinking_delta', text: shownThinking.slice(thinkingAt, thinkingAt - length) };
      thinkingAt -= length;
    }
  }
  return textAt;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
