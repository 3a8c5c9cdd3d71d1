import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/provider-error.js';
import { readOpenAiStream } from '../../../src/providers/openai/read-openai-stream.js';
import type { StreamEvent } from '../../../src/providers/types.js';
import { openAiRef } from './openai-fixture.js';

// Chunk shapes that the fake does not produce but compatible servers do.

type Delta = ChatCompletionChunk.Choice.Delta;
type FinishReason = ChatCompletionChunk.Choice['finish_reason'];

function chunk(
  delta: Delta,
  finishReason: FinishReason = null,
  usage?: ChatCompletionChunk['usage'],
): ChatCompletionChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...(usage ? { usage } : {}),
  };
}

async function read(chunks: ChatCompletionChunk[]): Promise<StreamEvent[]> {
  async function* source() {
    yield* chunks;
  }
  const events: StreamEvent[] = [];
  for await (const event of readOpenAiStream(openAiRef('m', 'ollama'), source()))
    events.push(event);
  return events;
}

describe('readOpenAiStream', () => {
  it('passes invalid JSON arguments on as the raw string, and empty arguments as {}', async () => {
    const events = await read([
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'a',
            type: 'function',
            function: { name: 'bad', arguments: '{"path": ' },
          },
        ],
      }),
      chunk({
        tool_calls: [
          { index: 1, id: 'b', type: 'function', function: { name: 'none', arguments: '' } },
        ],
      }),
      chunk({}, 'tool_calls'),
    ]);

    expect(events.filter((event) => event.type === 'tool_call')).toEqual([
      { type: 'tool_call', call: { id: 'a', name: 'bad', arguments: '{"path": ' } },
      { type: 'tool_call', call: { id: 'b', name: 'none', arguments: {} } },
    ]);
  });

  it('accepts whole tool calls without an index, a repeated name, and a `stop` finish (Ollama style)', async () => {
    const events = await read([
      chunk({
        role: 'assistant',
        tool_calls: [
          { id: 'x', type: 'function', function: { name: 'grep', arguments: '{"pat' } } as never,
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'grep', arguments: 'tern":"a"}' } }] }),
      chunk({}, 'stop', { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 }),
    ]);

    expect(events).toEqual([
      { type: 'tool_call', call: { id: 'x', name: 'grep', arguments: { pattern: 'a' } } },
      {
        type: 'usage',
        usage: { inputTokens: 9, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: 'stop', reason: 'tool_use' },
    ]);
  });

  it('shows a refusal as text and stops with refusal', async () => {
    const events = await read([chunk({ refusal: 'I cannot help with that.' }), chunk({}, 'stop')]);

    expect(events).toEqual([
      { type: 'text_delta', text: 'I cannot help with that.' },
      {
        type: 'usage',
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: 'stop', reason: 'refusal' },
    ]);
  });

  it('fails a stream that ends without a finish reason as a retryable connection error', async () => {
    const error = await read([chunk({ content: 'half an ans' })]).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
  });
});
