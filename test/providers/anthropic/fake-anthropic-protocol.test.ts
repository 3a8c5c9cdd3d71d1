import Anthropic, { APIError } from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicProtocol } from '../../fakes/anthropic-protocol.js';
import { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { FAKE_API_KEY } from './anthropic-fixture.js';

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function sdkFor(server: FakeProviderServer): Anthropic {
  return new Anthropic({
    apiKey: FAKE_API_KEY,
    baseURL: server.url,
    maxRetries: 0,
    logLevel: 'off',
  });
}

describe('fake Anthropic protocol, read by the real SDK', () => {
  it('answers a non-streaming call with a whole message', async () => {
    fake = await FakeProviderServer.start({
      handlers: [anthropicProtocol],
      script: [
        {
          kind: 'answer',
          text: 'Checking.',
          toolCalls: [{ name: 'grep', arguments: { pattern: 'TODO' } }],
          usage: { inputTokens: 50, outputTokens: 7, cacheReadTokens: 20, cacheWriteTokens: 3 },
        },
      ],
    });
    const message = await sdkFor(fake).messages.create({
      model: 'claude-test-1',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });

    expect(message).toMatchObject({
      id: 'msg_fake_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test-1',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_fake_1_0', name: 'grep', input: { pattern: 'TODO' } },
      ],
      usage: {
        input_tokens: 50,
        output_tokens: 7,
        cache_read_input_tokens: 20,
        cache_creation_input_tokens: 3,
      },
    });
    expect(fake.modelCalls[0]!.isStream).toBe(false);
    fake.assertDone();
  });

  it('streams the event sequence the SDK accumulates into the same message', async () => {
    fake = await FakeProviderServer.start({
      handlers: [anthropicProtocol],
      script: [
        {
          kind: 'answer',
          text: 'Checking.',
          toolCalls: [{ id: 'toolu_given', name: 'grep', arguments: { pattern: 'TODO' } }],
        },
      ],
    });
    const stream = sdkFor(fake).messages.stream({
      model: 'claude-test-1',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const message = await stream.finalMessage();

    expect(message.content).toMatchObject([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_given', name: 'grep', input: { pattern: 'TODO' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    fake.assertDone();
  });

  it('sends the API error body and headers for a scripted error', async () => {
    fake = await FakeProviderServer.start({
      handlers: [anthropicProtocol],
      script: [{ kind: 'error', status: 529, retryAfter: '3' }],
    });
    const error = await sdkFor(fake)
      .messages.create({
        model: 'claude-test-1',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Anthropic.OverloadedError);
    expect(error).toMatchObject({ status: 529, type: 'overloaded_error', requestID: 'req_fake_1' });
    expect((error as APIError).headers?.get('retry-after')).toBe('3');
    fake.assertDone();
  });

  it('lists its models in the models page format, without using the script', async () => {
    fake = await FakeProviderServer.start({
      handlers: [anthropicProtocol],
      models: ['claude-test-1', 'claude-sonnet-4-5'],
    });
    const page = await sdkFor(fake).models.list();

    expect(page.data).toEqual([
      {
        type: 'model',
        id: 'claude-test-1',
        display_name: 'Claude Test 1',
        created_at: '2025-01-01T00:00:00Z',
      },
      {
        type: 'model',
        id: 'claude-sonnet-4-5',
        display_name: 'Claude Sonnet 4.5',
        created_at: '2025-01-01T00:00:00Z',
      },
    ]);
    expect(page.has_more).toBe(false);
    expect(fake.requests[0]!.protocol).toBe('anthropic');
    fake.assertDone();
  });
});
