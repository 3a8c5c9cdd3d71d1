import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fakes/script.js';
import { createOpenAiClient } from '../../../src/providers/openai/create-openai-client.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import {
  FAKE_OPENAI_KEY,
  bodyOf,
  collect,
  openAiRef,
  settingsFor,
  startOpenAiFake,
} from './openai-fixture.js';

const ASK: ModelRequest = {
  system: 'Be brief.',
  messages: [{ role: 'user', text: 'Say hello.' }],
  maxTokens: 100,
};

describe('OpenAI answers', () => {
  it('gathers a text answer with complete()', async () => {
    const fake = await startOpenAiFake([
      reply.text('Hello there, friend.', { inputTokens: 21, outputTokens: 4 }),
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));

    const result = await client.complete(ASK);

    expect(result).toEqual({
      text: 'Hello there, friend.',
      toolCalls: [],
      usage: { inputTokens: 21, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 },
      stopReason: 'end_turn',
    });
    expect(bodyOf(fake, 0)).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
    });
    fake.assertDone();
  });

  it('streams text deltas in order, then one usage event, then the stop', async () => {
    const fake = await startOpenAiFake([
      { kind: 'answer', textChunks: ['Hel', 'lo ', 'wörld 🌍'], usage: { outputTokens: 3 } },
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));

    const events = await collect(client.stream(ASK));

    expect(events).toEqual([
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo ' },
      { type: 'text_delta', text: 'wörld 🌍' },
      {
        type: 'usage',
        usage: { inputTokens: 10, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: 'stop', reason: 'end_turn' },
    ]);
    fake.assertDone();
  });

  it('reports cached prompt tokens as cache reads, apart from uncached input', async () => {
    const usage = { inputTokens: 300, outputTokens: 40, cacheReadTokens: 1_200 };
    const fake = await startOpenAiFake([reply.text('cached', usage)]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));

    const result = await client.complete(ASK);

    // The wire said prompt_tokens 1500 with cached_tokens 1200.
    expect(result.usage).toEqual({
      inputTokens: 300,
      outputTokens: 40,
      cacheReadTokens: 1_200,
      cacheWriteTokens: 0,
    });
    fake.assertDone();
  });

  it('maps a length finish to max_tokens', async () => {
    const fake = await startOpenAiFake([
      { kind: 'answer', text: 'cut sho', stopReason: 'max_tokens' },
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));

    const result = await client.complete(ASK);

    expect(result.stopReason).toBe('max_tokens');
    expect(result.text).toBe('cut sho');
    fake.assertDone();
  });

  it('serves a non-streamed chat.completion the SDK accepts, tool calls and usage included', async () => {
    const fake = await startOpenAiFake([
      {
        kind: 'answer',
        text: 'Looking.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }],
        usage: { cacheReadTokens: 7 },
      },
    ]);
    const sdk = new OpenAI({ apiKey: FAKE_OPENAI_KEY, baseURL: `${fake.url}/v1`, maxRetries: 0 });

    const completion = await sdk.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });

    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.content).toBe('Looking.');
    expect(completion.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'call_fake_1_0',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a.ts"}' },
      },
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 17,
      completion_tokens: 5,
      total_tokens: 22,
    });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(7);
    expect(fake.modelCalls[0]?.isStream).toBe(false);
    fake.assertDone();
  });

  it('refuses a PDF document before sending anything', async () => {
    const fake = await startOpenAiFake([]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));
    const request: ModelRequest = {
      system: '',
      messages: [
        {
          role: 'user',
          text: 'Read this.',
          documents: [{ name: 'spec.pdf', format: 'pdf', data: 'JVBERi0=' }],
        },
      ],
      maxTokens: 10,
    };

    await expect(client.complete(request)).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('spec.pdf'),
    });
    expect(fake.requests).toHaveLength(0);
    fake.assertDone();
  });
});
