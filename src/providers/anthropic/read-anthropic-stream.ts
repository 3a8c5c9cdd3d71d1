import { ProviderError } from '../provider-error.js';
import type { ModelRef, ModelStopReason, StreamEvent, Usage } from '../types.js';
import { boundToolArguments, parseToolArguments } from '../bound-tool-arguments.js';
import { toAnthropicStopReason } from './to-anthropic-stop-reason.js';

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'tool_use'; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'thinking'; text: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  /** Citations, server tools: read past, not surfaced. */
  | { kind: 'other' };

/**
 * Turns raw Messages API stream events into our events, checking the order and shape as it goes:
 * text deltas as they come, one `tool_call` per tool block when it stops, then `usage` and `stop`
 * at `message_stop`. A broken sequence is a retryable `server` error, a stream that ends early a
 * `connection` error. Unknown event and block types are skipped, as the API asks.
 */
export async function* readAnthropicStream(
  events: AsyncIterable<unknown>,
  ref: ModelRef,
): AsyncGenerator<StreamEvent> {
  const malformed = (why: string) =>
    new ProviderError('server', ref, `Anthropic sent a malformed stream: ${why}`, {
      hint: 'retry; if it keeps happening, check ANTHROPIC_BASE_URL points at the Anthropic API',
    });
  const blocks = new Map<number, OpenBlock>();
  let usage: Usage | undefined;
  let stopReason: ModelStopReason = 'other';

  for await (const event of events) {
    if (!isRecord(event) || typeof event.type !== 'string')
      throw malformed('an event without a type');
    if (event.type !== 'message_start' && usage === undefined)
      throw malformed(`${event.type} before message_start`);
    switch (event.type) {
      case 'message_start': {
        if (usage !== undefined) throw malformed('a second message_start');
        const message = event.message;
        if (!isRecord(message) || !isRecord(message.usage))
          throw malformed('message_start without usage');
        usage = mergeUsage(undefined, message.usage);
        break;
      }
      case 'content_block_start': {
        const index = blockIndex(event);
        const block = event.content_block;
        if (index === undefined || !isRecord(block) || blocks.has(index))
          throw malformed('a bad content_block_start');
        blocks.set(
          index,
          openBlock(block) ??
            fail(
              malformed(
                'a tool_use block without id or name, or a redacted_thinking block without data',
              ),
            ),
        );
        break;
      }
      case 'content_block_delta': {
        const index = blockIndex(event);
        const block = index === undefined ? undefined : blocks.get(index);
        const delta = event.delta;
        if (!block || !isRecord(delta)) throw malformed('a delta for no open content block');
        if (delta.type === 'text_delta') {
          if (block.kind !== 'text' || typeof delta.text !== 'string')
            throw malformed('a bad text_delta');
          if (delta.text !== '') yield { type: 'text_delta', text: delta.text };
        } else if (delta.type === 'thinking_delta') {
          if (block.kind !== 'thinking' || typeof delta.thinking !== 'string')
            throw malformed('a bad thinking_delta');
          block.text += delta.thinking;
          if (delta.thinking !== '') yield { type: 'thinking_delta', text: delta.thinking };
        } else if (delta.type === 'signature_delta') {
          if (block.kind !== 'thinking' || typeof delta.signature !== 'string')
            throw malformed('a bad signature_delta');
          block.signature += delta.signature;
        } else if (delta.type === 'input_json_delta') {
          if (block.kind !== 'tool_use' || typeof delta.partial_json !== 'string')
            throw malformed('a bad input_json_delta');
          block.json += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const index = blockIndex(event);
        const block = index === undefined ? undefined : blocks.get(index);
        if (index === undefined || !block) throw malformed('a stop for no open content block');
        blocks.delete(index);
        if (block.kind === 'thinking') {
          yield {
            type: 'thinking',
            part: {
              type: 'thinking',
              source: 'anthropic',
              text: block.text,
              ...(block.signature === '' ? {} : { signature: block.signature }),
            },
          };
        } else if (block.kind === 'redacted_thinking') {
          yield {
            type: 'thinking',
            part: { type: 'redacted_thinking', source: 'anthropic', data: block.data },
          };
        } else if (block.kind === 'tool_use') {
          yield {
            type: 'tool_call',
            call: { id: block.id, name: block.name, arguments: parseToolInput(block) },
          };
        }
        break;
      }
      case 'message_delta': {
        const delta = event.delta;
        if (isRecord(delta) && typeof delta.stop_reason === 'string')
          stopReason = toAnthropicStopReason(delta.stop_reason);
        if (isRecord(event.usage)) usage = mergeUsage(usage, event.usage);
        break;
      }
      case 'message_stop':
        yield { type: 'usage', usage: usage ?? fail(malformed('no usage')) };
        yield { type: 'stop', reason: stopReason };
        return;
    }
  }
  if (usage === undefined) {
    // Data-only events are named by createEventNamingFetch; what is left is empty or not Anthropic's.
    throw new ProviderError(
      'bad_request',
      ref,
      'the endpoint answered with a stream that carried no Anthropic events (nothing at all, or events without a JSON `type` such as OpenAI chat-completion chunks)',
      {
        hint: 'point ANTHROPIC_BASE_URL at an endpoint that speaks the Anthropic Messages API, or use it through openai:: if it speaks chat completions',
      },
    );
  }
  throw new ProviderError(
    'connection',
    ref,
    'the Anthropic stream ended before the answer was complete',
    {
      hint: 'retry; if it keeps happening, check the network and any proxy in between',
    },
  );
}

function openBlock(block: Record<string, unknown>): OpenBlock | undefined {
  if (block.type === 'text') return { kind: 'text' };
  if (block.type === 'thinking')
    return {
      kind: 'thinking',
      text: typeof block.thinking === 'string' ? block.thinking : '',
      signature: typeof block.signature === 'string' ? block.signature : '',
    };
  if (block.type === 'redacted_thinking')
    return typeof block.data === 'string'
      ? { kind: 'redacted_thinking', data: block.data }
      : undefined;
  if (block.type !== 'tool_use') return { kind: 'other' };
  if (typeof block.id !== 'string' || typeof block.name !== 'string') return undefined;
  return {
    kind: 'tool_use',
    id: block.id,
    name: block.name,
    json: '',
    startInput: block.input ?? {},
  };
}

/** The joined `partial_json` pieces; none at all means the input came whole with the block start. */
function parseToolInput(block: { json: string; startInput: unknown }): unknown {
  if (block.json.trim() === '') return boundToolArguments(block.startInput);
  // As the OpenAI client does: invalid JSON is the raw text, which the loop answers with an error.
  return parseToolArguments(block.json);
}

/** message_delta counts are cumulative: a count present there replaces the one from message_start. */
function mergeUsage(previous: Usage | undefined, wire: Record<string, unknown>): Usage {
  const count = (key: string, fallback: number) => {
    const value = wire[key];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  return {
    inputTokens: count('input_tokens', previous?.inputTokens ?? 0),
    outputTokens: count('output_tokens', previous?.outputTokens ?? 0),
    cacheReadTokens: count('cache_read_input_tokens', previous?.cacheReadTokens ?? 0),
    cacheWriteTokens: count('cache_creation_input_tokens', previous?.cacheWriteTokens ?? 0),
  };
}

function blockIndex(event: Record<string, unknown>): number | undefined {
  return Number.isInteger(event.index) && (event.index as number) >= 0
    ? (event.index as number)
    : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(error: Error): never {
  throw error;
}
