import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from './fake-provider-server.js';
import { reply } from './script.js';
import { startFakeProvider } from './start-fake-provider.js';

/** The fake's Message Batches refuse what the API refuses, beside a passing control, through the SDK. */
let fake: FakeProviderServer;
let client: Anthropic;
const behaviour = { inProgressPolls: 1 };

beforeEach(async () => {
  behaviour.inProgressPolls = 1;
  fake = await startFakeProvider({ batches: behaviour });
  client = new Anthropic({ apiKey: 'fake', baseURL: fake.url, maxRetries: 0 });
});

afterEach(async () => {
  await fake.close();
});

const params = {
  model: 'claude-haiku-4-5',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

describe('fake Message Batches', () => {
  it('control: a batch is created, polled in_progress, ended, and its results read by custom_id', async () => {
    fake.enqueue(reply.text('one'), reply.error(500), {
      ...reply.text('x'),
      batchResult: 'expired',
    });
    const created = await client.messages.batches.create({
      requests: [
        { custom_id: 'a', params },
        { custom_id: 'b', params },
        { custom_id: 'c', params },
      ],
    });
    expect(created.processing_status).toBe('in_progress');
    expect(created.request_counts).toEqual({
      processing: 3,
      succeeded: 0,
      errored: 0,
      canceled: 0,
      expired: 0,
    });
    expect((await client.messages.batches.retrieve(created.id)).processing_status).toBe(
      'in_progress',
    );
    const ended = await client.messages.batches.retrieve(created.id);
    expect(ended.processing_status).toBe('ended');
    expect(ended.request_counts).toEqual({
      processing: 0,
      succeeded: 1,
      errored: 1,
      canceled: 0,
      expired: 1,
    });
    const results = new Map<string, string>();
    for await (const line of await client.messages.batches.results(created.id))
      results.set(line.custom_id, line.result.type);
    expect(Object.fromEntries(results)).toEqual({ a: 'succeeded', b: 'errored', c: 'expired' });
    fake.assertDone();
  });

  it.each([
    [
      'a custom_id with a dot',
      [{ custom_id: 'functions.x:0', params }],
      /custom_id: String should match/,
    ],
    ['a custom_id of 65 characters', [{ custom_id: 'a'.repeat(65), params }], /custom_id/],
    ['an empty custom_id', [{ custom_id: '', params }], /custom_id/],
    [
      'a repeated custom_id',
      [
        { custom_id: 'a', params },
        { custom_id: 'a', params },
      ],
      /Duplicate custom_id/,
    ],
    ['stream in params', [{ custom_id: 'a', params: { ...params, stream: false } }], /stream/],
    [
      'params /v1/messages refuses',
      [{ custom_id: 'a', params: { ...params, temperature: 0.5 } }],
      /requests\.0\.params: /,
    ],
    ['no requests', [], /requests: must be a list/],
  ])('refuses %s with a 400, and the test sees it', async (_name, requests, message) => {
    fake.enqueue(reply.text('never'));
    await expect(
      client.messages.batches.create({
        requests,
      } as unknown as Anthropic.Messages.BatchCreateParams),
    ).rejects.toMatchObject({ status: 400 });
    const violations = fake.takeViolations();
    expect(violations).toHaveLength(1);
    expect(violations[0]!.message).toMatch(message);
    // Nothing was taken from the script.
    expect(fake.pending).toBe(1);
  });

  it('an unknown batch is a 404 and a canceled one ends with canceled results', async () => {
    await expect(client.messages.batches.retrieve('msgbatch_nosuch')).rejects.toMatchObject({
      status: 404,
    });
    behaviour.inProgressPolls = Number.POSITIVE_INFINITY;
    fake.enqueue(reply.text('one'));
    const created = await client.messages.batches.create({
      requests: [{ custom_id: 'a', params }],
    });
    expect((await client.messages.batches.cancel(created.id)).processing_status).toBe('canceling');
    const ended = await client.messages.batches.retrieve(created.id);
    expect(ended.request_counts.canceled).toBe(1);
    for await (const line of await client.messages.batches.results(created.id))
      expect(line.result.type).toBe('canceled');
  });
});
