import { describe, expect, it } from 'vitest';
import { readAnthropicStream } from '../../../src/providers/anthropic/read-anthropic-stream.js';
import { toAnthropicMessages } from '../../../src/providers/anthropic/to-anthropic-messages.js';
import { INVALID_TOOL_JSON_KEY } from '../../../src/providers/to-tool-input.js';
import type { ProviderError } from '../../../src/providers/provider-error.js';
import type { StreamEvent } from '../../../src/providers/types.js';
import { REF, collect, providerErrorOf } from './anthropic-fixture.js';

const START = { type: 'message_start', message: { usage: { input_tokens: 3, output_tokens: 1 } } };
const STOP = [
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
];

async function* wire(events: unknown[]): AsyncGenerator<unknown> {
  for (const event of events) yield event;
}

const read = (events: unknown[]): Promise<StreamEvent[]> =>
  collect(readAnthropicStream(wire(events), REF));
const failure = (events: unknown[]): Promise<ProviderError> => providerErrorOf(read(events));

function toolBlock(index: number, pieces: string[], input: unknown = {}): unknown[] {
  return [
    {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: `toolu_${index}`, name: 'grep', input },
    },
    ...pieces.map((piece) => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: piece },
    })),
    { type: 'content_block_stop', index },
  ];
}

describe('readAnthropicStream', () => {
  it('keeps unparsable tool arguments as raw text, and sends them back as a valid tool_use input', async () => {
    const events = await read([START, ...toolBlock(0, ['{"pattern": "a', 'b", ']), ...STOP]);
    const call = {
      id: 'toolu_0',
      name: 'grep',
      arguments: '{"pattern": "ab", ',
    };
    expect(events[0]).toEqual({ type: 'tool_call', call });

    expect(toAnthropicMessages([{ role: 'assistant', text: '', toolCalls: [call] }])).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_0',
            name: 'grep',
            input: { [INVALID_TOOL_JSON_KEY]: call.arguments },
          },
        ],
      },
    ]);
  });

  it('uses the input from the block start when no JSON pieces follow', async () => {
    const events = await read([
      START,
      ...toolBlock(0, [], { pattern: 'x' }),
      ...toolBlock(1, ['']),
      ...STOP,
    ]);
    expect(events.slice(0, 2)).toEqual([
      { type: 'tool_call', call: { id: 'toolu_0', name: 'grep', arguments: { pattern: 'x' } } },
      { type: 'tool_call', call: { id: 'toolu_1', name: 'grep', arguments: {} } },
    ]);
  });

  it('keeps thinking blocks with their signature and skips event types it does not know', async () => {
    const events = await read([
      START,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'sig' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'some_future_event', detail: 1 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'answer' } },
      { type: 'content_block_stop', index: 1 },
      ...STOP,
    ]);
    expect(events.slice(0, 3)).toEqual([
      { type: 'thinking_delta', text: 'hmm' },
      {
        type: 'thinking',
        part: { type: 'thinking', source: 'anthropic', text: 'hmm', signature: 'sig' },
      },
      { type: 'text_delta', text: 'answer' },
    ]);
    expect(events.map((event) => event.type).slice(3)).toEqual(['usage', 'stop']);
  });

  it('keeps a redacted thinking block as received', async () => {
    const events = await read([
      START,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'redacted_thinking', data: 'opaque==' },
      },
      { type: 'content_block_stop', index: 0 },
      ...STOP,
    ]);
    expect(events[0]).toEqual({
      type: 'thinking',
      part: { type: 'redacted_thinking', source: 'anthropic', data: 'opaque==' },
    });
  });

  it('takes cumulative counts from message_delta over message_start', async () => {
    const events = await read([
      {
        type: 'message_start',
        message: { usage: { input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 40 } },
      },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { input_tokens: 5, output_tokens: 12, cache_read_input_tokens: null },
      },
      { type: 'message_stop' },
    ]);
    expect(events).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 5, outputTokens: 12, cacheReadTokens: 40, cacheWriteTokens: 0 },
      },
      { type: 'stop', reason: 'end_turn' },
    ]);
  });

  it.each([
    ['model_context_window_exceeded', 'context_exceeded'],
    ['refusal', 'refusal'],
    ['stop_sequence', 'stop_sequence'],
    ['pause_turn', 'pause_turn'],
    ['a_reason_from_the_future', 'other'],
  ])('maps the stop reason %s to %s', async (wireReason, reason) => {
    const events = await read([
      START,
      { type: 'message_delta', delta: { stop_reason: wireReason }, usage: {} },
      { type: 'message_stop' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason });
  });

  it.each([
    [
      'an event before message_start',
      [{ type: 'content_block_start', index: 0, content_block: { type: 'text' } }],
    ],
    [
      'a delta for a block that never started',
      [START, { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'x' } }],
    ],
    [
      'a text delta inside a tool block',
      [
        START,
        toolBlock(0, [])[0],
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } },
      ],
    ],
    ['an event that is not an object', [START, 'surprise']],
    [
      'a tool block without a name',
      [
        START,
        { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't' } },
      ],
    ],
  ])('fails with a retryable server error on %s', async (_what, events) => {
    const error = await failure(events);
    expect(error).toMatchObject({ kind: 'server', isRetryable: true });
    expect(error.message).toContain('malformed stream');
  });

  it('fails with a retryable connection error when the stream ends before message_stop', async () => {
    const error = await failure([
      START,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ]);
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
  });
});
