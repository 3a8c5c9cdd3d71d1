import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/providers/create-model-client.js';
import { parseModelId } from '../../src/providers/model-id/parse-model-id.js';
import { costOf } from '../../src/providers/pricing/cost-of.js';
import { priceFor } from '../../src/providers/pricing/price-for.js';
import { ConfigError } from '../../src/shared/errors.js';
import type { ModelRequest, StreamEvent } from '../../src/providers/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';

const request: ModelRequest = {
  system: 'You answer briefly.',
  messages: [{ role: 'user', text: 'Say hello.' }],
  maxTokens: 64,
};

/** Each provider family, with the env that points it at the fake. */
const providers = [
  { id: 'anthropic::claude-haiku-4-5', protocol: 'anthropic' },
  { id: 'openai::gpt-4o-mini', protocol: 'openai' },
  { id: 'bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0', protocol: 'bedrock' },
] as const;

let fake: FakeProviderServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  fake = await startFakeProvider();
  // The AWS SDK reads its credential chain from process.env; the other SDKs get settings only.
  Object.assign(process.env, fakeProviderEnv(fake));
});

afterEach(() => {
  fake.assertDone();
  fake.requests.length = 0;
});

afterAll(async () => {
  await fake.close();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('createModelClient', () => {
  it.each(providers)('$id answers through its provider', async ({ id, protocol }) => {
    fake.enqueue(reply.text('Hello from the fake.', { inputTokens: 12, outputTokens: 5 }));
    const client = await createModelClient(parseModelId(id), fakeProviderEnv(fake));
    expect(client.ref.id).toBe(id);
    const result = await client.complete(request);
    expect(result.text).toBe('Hello from the fake.');
    expect(result.stopReason).toBe('end_turn');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 5 });
    expect(fake.modelCalls.map((call) => call.protocol)).toEqual([protocol]);
  });

  it.each(providers)(
    '$id reports usage with cache tokens, priced from the table',
    async ({ id }) => {
      const usage = {
        inputTokens: 1000,
        outputTokens: 200,
        cacheReadTokens: 4000,
        cacheWriteTokens: 300,
      };
      fake.enqueue(reply.text('Priced.', usage));
      const ref = parseModelId(id);
      const client = await createModelClient(ref, fakeProviderEnv(fake));
      const result = await client.complete(request);
      // OpenAI has no cache writes: its usage reports them as 0, and the fake folds them into plain input.
      const expected =
        ref.provider === 'openai' ? { ...usage, inputTokens: 1300, cacheWriteTokens: 0 } : usage;
      expect(result.usage).toEqual(expected);
      const price = priceFor(ref);
      if (!price) throw new Error(`no price for ${id}`);
      const cost = costOf(result.usage, price);
      const byHand =
        (expected.inputTokens * price.input +
          expected.outputTokens * price.output +
          expected.cacheReadTokens * price.cacheRead +
          expected.cacheWriteTokens * price.cacheWrite) /
        1_000_000;
      expect(cost).toBeCloseTo(byHand, 12);
      expect(cost).toBeGreaterThan(0);
    },
  );

  it.each(providers)('$id streams through its provider', async ({ id }) => {
    fake.enqueue(reply.text('Streamed hello.'));
    const client = await createModelClient(parseModelId(id), fakeProviderEnv(fake));
    const events = await collect(client.stream(request));
    const text = events
      .flatMap((event) => (event.type === 'text_delta' ? [event.text] : []))
      .join('');
    expect(text).toBe('Streamed hello.');
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
  });

  it('reaches local-<port> and ollama-style endpoints through the OpenAI client', async () => {
    fake.enqueue(reply.text('local answer'));
    const port = Number(new URL(fake.url).port);
    const client = await createModelClient(parseModelId(`local-${port}::qwen`), {});
    expect((await client.complete(request)).text).toBe('local answer');
    expect(fake.modelCalls[0]?.path).toBe('/v1/chat/completions');
    expect(fake.modelCalls[0]?.headers.authorization).toBe('Bearer oy-local');
  });

  it('fails before any network call when the key is missing', async () => {
    await expect(createModelClient(parseModelId('claude-haiku-4-5'), {})).rejects.toBeInstanceOf(
      ConfigError,
    );
    expect(fake.requests).toEqual([]);
  });
});

describe('retries through the real clients', () => {
  it.each(providers)(
    '$id waits out a 429 with Retry-After: 1 and succeeds on the second call',
    async ({ id }) => {
      fake.enqueue(reply.rateLimited('1'), reply.text('after the wait'));
      const delays: number[] = [];
      const client = await createModelClient(parseModelId(id), fakeProviderEnv(fake), {
        retry: {
          random: () => 0,
          sleep: async (ms) => {
            delays.push(ms);
          },
        },
      });
      expect((await client.complete(request)).text).toBe('after the wait');
      expect(fake.modelCalls).toHaveLength(2);
      expect(delays).toEqual([1000]);
    },
  );

  it.each(providers)('$id does not retry a 401', async ({ id }) => {
    fake.enqueue(reply.error(401));
    const client = await createModelClient(parseModelId(id), fakeProviderEnv(fake), {
      retry: { sleep: async () => undefined },
    });
    await expect(client.complete(request)).rejects.toMatchObject({ kind: 'auth' });
    expect(fake.modelCalls).toHaveLength(1);
  });
});
