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
import type { RecordedAnswer, SessionWriter } from './session-types.js';

/**
 * The client, with every answer it gives written to the session (`answer` lines) once it is whole, so
 * `oy run --replay` can answer from them. A call that fails or is cancelled leaves no line.
 */
export function recordAnswers(
  client: ModelClient,
  session: Pick<SessionWriter, 'recordAnswer'>,
  turn: number,
): ModelClient {
  return {
    ref: client.ref,
    async *stream(request: ModelRequest, options?: CallOptions): AsyncIterable<StreamEvent> {
      const answer = new AnswerCollector(request);
      for await (const event of client.stream(request, options)) {
        answer.add(event);
        yield event;
      }
      await session.recordAnswer(turn, answer.finish());
    },
    async complete(request: ModelRequest, options?: CallOptions): Promise<ModelResult> {
      const result = await client.complete(request, options);
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
