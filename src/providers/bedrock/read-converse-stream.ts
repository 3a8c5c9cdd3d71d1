import type { ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../provider-error.js';
import type { ModelRef, StopReason, StreamEvent } from '../types.js';
import { toStopReason } from './to-stop-reason.js';
import { toUsage } from './to-usage.js';
import {
  jsonTextNestsDeeper,
  MAX_ARGUMENT_DEPTH,
  TOO_DEEP_ARGUMENTS,
} from '../bound-tool-arguments.js';

/** A tool call whose JSON input is still arriving in fragments. */
interface OpenToolCall {
  id: string;
  name: string;
  input: string;
}

/**
 * ConverseStream events as our normalised events: text deltas as they come, each tool call once its
 * block closes (with parsed input), usage from the `metadata` event, and `stop` last. Reasoning deltas
 * are dropped. A stream that ends before `messageStop` failed, whatever the transport said.
 */
export async function* readConverseStream(
  events: AsyncIterable<ConverseStreamOutput>,
  ref: ModelRef,
): AsyncGenerator<StreamEvent> {
  const openCalls = new Map<number, OpenToolCall>();
  let stopReason: StopReason | undefined;
  for await (const event of events) {
    if (event.contentBlockStart) {
      const toolUse = event.contentBlockStart.start?.toolUse;
      if (toolUse) {
        openCalls.set(event.contentBlockStart.contentBlockIndex ?? 0, {
          id: toolUse.toolUseId ?? '',
          name: toolUse.name ?? '',
          input: '',
        });
      }
    } else if (event.contentBlockDelta) {
      const { delta, contentBlockIndex = 0 } = event.contentBlockDelta;
      if (delta?.text) yield { type: 'text_delta', text: delta.text };
      if (delta?.toolUse) {
        const call = openCalls.get(contentBlockIndex);
        if (!call)
          throw malformed(
            ref,
            `tool input arrived for block ${contentBlockIndex}, which never started`,
          );
        call.input += delta.toolUse.input ?? '';
      }
    } else if (event.contentBlockStop) {
      const index = event.contentBlockStop.contentBlockIndex ?? 0;
      const call = openCalls.get(index);
      if (call) {
        openCalls.delete(index);
        yield {
          type: 'tool_call',
          call: { id: call.id, name: call.name, arguments: parseToolInput(call, ref) },
        };
      }
    } else if (event.messageStop) {
      stopReason = toStopReason(event.messageStop.stopReason);
    } else if (event.metadata) {
      yield { type: 'usage', usage: toUsage(event.metadata.usage) };
    }
  }
  if (stopReason === undefined) {
    throw new ProviderError(
      'connection',
      ref,
      'the Bedrock stream ended before the answer was complete',
      {
        hint: 'retry; if it keeps happening, check the network or the endpoint',
      },
    );
  }
  // A block left open at a clean stop is complete as far as the model is concerned.
  for (const call of openCalls.values()) {
    yield {
      type: 'tool_call',
      call: { id: call.id, name: call.name, arguments: parseToolInput(call, ref) },
    };
  }
  yield { type: 'stop', reason: stopReason };
}

function parseToolInput(call: OpenToolCall, ref: ModelRef): unknown {
  if (call.input.trim() === '') return {};
  if (jsonTextNestsDeeper(call.input, MAX_ARGUMENT_DEPTH)) return TOO_DEEP_ARGUMENTS;
  try {
    return JSON.parse(call.input) as unknown;
  } catch {
    throw malformed(ref, `the input of tool call ${call.name} is not valid JSON`);
  }
}

function malformed(ref: ModelRef, what: string): ProviderError {
  return new ProviderError('server', ref, `malformed Bedrock stream: ${what}`, {
    hint: 'retry; the model or the service sent a broken answer',
  });
}
