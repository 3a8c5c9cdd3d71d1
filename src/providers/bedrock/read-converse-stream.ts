import type { ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../provider-error.js';
import type { ModelRef, ModelStopReason, StreamEvent, ThinkingPart } from '../types.js';
import { toStopReason } from './to-stop-reason.js';
import { toUsage } from './to-usage.js';
import { parseToolArguments } from '../bound-tool-arguments.js';

/** Reasoning still arriving: its text and signature, or opaque redacted bytes. */
interface OpenReasoning {
  text: string;
  signature: string;
  redacted: Uint8Array[];
}

/** A tool call whose JSON input is still arriving in fragments. */
interface OpenToolCall {
  id: string;
  name: string;
  input: string;
}

/**
 * ConverseStream events as our normalised events: text deltas as they come, each tool call once its
 * block closes (with parsed input; JSON that does not parse arrives as its text, as from the other providers,
 * for the loop to answer with a tool error), reasoning as `thinking_delta`s and then one signed `thinking` part when its
 * block closes, usage from the `metadata` event, and `stop` last. A stream that ends before `messageStop`
 * failed, whatever the transport said.
 */
export async function* readConverseStream(
  events: AsyncIterable<ConverseStreamOutput>,
  ref: ModelRef,
): AsyncGenerator<StreamEvent> {
  const openCalls = new Map<number, OpenToolCall>();
  const reasoning = new Map<number, OpenReasoning>();
  let stopReason: ModelStopReason | undefined;
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
      if (delta?.reasoningContent) {
        const open = reasoning.get(contentBlockIndex) ?? { text: '', signature: '', redacted: [] };
        reasoning.set(contentBlockIndex, open);
        const { text, signature, redactedContent } = delta.reasoningContent;
        if (text) {
          open.text += text;
          yield { type: 'thinking_delta', text };
        }
        if (signature) open.signature += signature;
        if (redactedContent) open.redacted.push(redactedContent);
      }
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
      const thought = reasoning.get(index);
      if (thought) {
        reasoning.delete(index);
        yield { type: 'thinking', part: toThinkingPart(thought) };
      }
      const call = openCalls.get(index);
      if (call) {
        openCalls.delete(index);
        yield {
          type: 'tool_call',
          call: { id: call.id, name: call.name, arguments: parseToolArguments(call.input) },
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
      call: { id: call.id, name: call.name, arguments: parseToolArguments(call.input) },
    };
  }
  yield { type: 'stop', reason: stopReason };
}

function toThinkingPart(open: OpenReasoning): ThinkingPart {
  if (open.redacted.length > 0)
    return {
      type: 'redacted_thinking',
      source: 'bedrock',
      data: Buffer.concat(open.redacted).toString('base64'),
    };
  return {
    type: 'thinking',
    source: 'bedrock',
    text: open.text,
    ...(open.signature === '' ? {} : { signature: open.signature }),
  };
}

function malformed(ref: ModelRef, what: string): ProviderError {
  return new ProviderError('server', ref, `malformed Bedrock stream: ${what}`, {
    hint: 'retry; the model or the service sent a broken answer',
  });
}
