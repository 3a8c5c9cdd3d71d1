import { boundToolArguments } from '../../providers/bound-tool-arguments.js';
import { addUsage } from '../../providers/pricing/usage-totals.js';
import {
  EMPTY_USAGE,
  type CallOptions,
  type ModelClient,
  type ModelRequest,
  type ModelResult,
  type StreamEvent,
  type ThinkingPart,
} from '../../providers/types.js';
import { describeAnswerInput } from './answer-input.js';
import { describeCallFailure } from './describe-call-failure.js';
import type { RecordedAnswer, RecordedFailure, SessionWriter } from './session-types.js';

/**
 * The client, with every answer it gives written to the session (`answer` lines) once it is whole, so
 * `oy run --replay` can answer from them; a call that fails or is cancelled leaves a `failed_call`
 * line instead (what streamed before, and the error as the loop reports it, redacted), and its error
 * goes on to the caller unchanged.
 */
export function recordAnswers(
  client: ModelClient,
  session: Pick<SessionWriter, 'recordAnswer' | 'recordFailure'>,
  turn: number,
  redact: (text: string) => string,
): ModelClient {
  const recordFailure = async (
    answer: AnswerCollector,
    error: unknown,
    signal: AbortSignal | undefined,
  ) => {
    const failure: RecordedFailure['failure'] = signal?.aborted
      ? { type: 'cancelled' }
      : { type: 'error', ...describeCallFailure(error) };
    if (failure.type === 'error') failure.message = redact(failure.message);
    // The call's own error is what the caller must see, whatever becomes of this line.
    await session.recordFailure(turn, answer.failed(failure)).catch(() => undefined);
  };
  return {
    ref: client.ref,
    async *stream(request: ModelRequest, options?: CallOptions): AsyncIterable<StreamEvent> {
      const answer = new AnswerCollector(request);
      try {
        for await (const event of client.stream(request, options)) {
          answer.add(event);
          yield event;
        }
      } catch (error) {
        await recordFailure(answer, error, options?.signal);
        throw error;
      }
      await session.recordAnswer(turn, answer.finish());
    },
    async complete(request: ModelRequest, options?: CallOptions): Promise<ModelResult> {
      let result: ModelResult;
      try {
        result = await client.complete(request, options);
      } catch (error) {
        await recordFailure(new AnswerCollector(request), error, options?.signal);
        throw error;
      }
      await session.recordAnswer(turn, {
        input: inputOf(request),
        text: result.text,
        ...(result.thinking?.length ? { thinking: result.thinking } : {}),
        toolCalls: result.toolCalls.map(boundCall),
        usage: result.usage,
        stopReason: result.stopReason,
      });
      return result;
    },
  };
}

/** One streamed answer, gathered as callModel gathers it, with the order of its deltas. */
class AnswerCollector {
  private readonly answer: RecordedAnswer;
  private readonly thinking: ThinkingPart[] = [];
  private shownThinking = '';

  constructor(request: ModelRequest) {
    this.answer = {
      input: inputOf(request),
      text: '',
      toolCalls: [],
      usage: { ...EMPTY_USAGE },
      stopReason: 'other',
      deltas: [],
    };
  }

  add(event: StreamEvent): void {
    const answer = this.answer;
    if (event.type === 'text_delta') {
      answer.text += event.text;
      answer.deltas?.push(event.text.length);
    } else if (event.type === 'thinking_delta') {
      this.shownThinking += event.text;
      answer.deltas?.push(-event.text.length);
    } else if (event.type === 'thinking') this.thinking.push(event.part);
    else if (event.type === 'tool_call') answer.toolCalls.push(boundCall(event.call));
    else if (event.type === 'usage') answer.usage = addUsage(answer.usage, event.usage);
    else answer.stopReason = event.reason;
  }

  /** What streamed before the call ended with `failure`. */
  failed(failure: RecordedFailure['failure']): RecordedFailure {
    const { input, text, deltas = [] } = this.answer;
    return {
      input,
      text,
      deltas,
      ...(this.shownThinking === '' ? {} : { shownThinking: this.shownThinking }),
      failure,
    };
  }

  finish(): RecordedAnswer {
    const joined = this.thinking
      .map((part) => (part.type === 'thinking' ? part.text : ''))
      .join('');
    return {
      ...this.answer,
      ...(this.thinking.length > 0 ? { thinking: this.thinking } : {}),
      ...(this.shownThinking === joined ? {} : { shownThinking: this.shownThinking }),
    };
  }
}

function inputOf(request: ModelRequest): string[] {
  return describeAnswerInput(request.messages).map((piece) => piece.digest);
}

// The session line is JSON: nothing deeper than the loop takes may reach JSON.stringify.
function boundCall<T extends { arguments: unknown }>(call: T): T {
  return { ...call, arguments: boundToolArguments(call.arguments) };
}
