import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/provider-error.js';
import { MAX_RETRY_AFTER_MS } from '../../../src/providers/retry/parse-retry-after.js';
import { createOpenAiClient } from '../../../src/providers/openai/create-openai-client.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { reply, type ScriptedReply } from '../../fakes/script.js';
import {
  FAKE_OPENAI_KEY,
  collect,
  openAiRef,
  rejectionOf,
  settingsFor,
  startOpenAiFake,
} from './openai-fixture.js';

const ASK: ModelRequest = { system: '', messages: [{ role: 'user', text: 'hi' }], maxTokens: 10 };

/** Long enough that a test which waits for it would hit its own timeout. */
const NEVER_MS = 30_000;
/** Short enough for a test, long enough for a loopback answer. */
const SHORT_TIMEOUT_MS = 300;

async function failWith(
  script: ScriptedReply[],
  timeoutMs?: number,
): Promise<{ error: ProviderError; fake: FakeProviderServer }> {
  const fake = await startOpenAiFake(script);
  const client = createOpenAiClient(
    openAiRef('gpt-4o'),
    settingsFor(fake, timeoutMs === undefined ? {} : { timeoutMs }),
  );
  const error = await rejectionOf(client.complete(ASK));
  expect(error).toBeInstanceOf(ProviderError);
  return { error: error as ProviderError, fake };
}

describe('OpenAI errors', () => {
  it('429 with Retry-After in seconds is rate_limited with the wait', async () => {
    const { error, fake } = await failWith([reply.rateLimited('7')]);

    expect(error).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 7_000,
      isRetryable: true,
    });
    expect(error.message).toMatch(/^openai::gpt-4o: rate limited/);
    fake.assertDone();
  });

  it('429 with Retry-After as an HTTP date: the wait until then, as asked', async () => {
    const soon = new Date(Date.now() + 20_000).toUTCString();
    const late = new Date(Date.now() + 10 * 60_000).toUTCString();
    const { error: first, fake } = await failWith([reply.rateLimited(soon)]);
    const { error: second, fake: other } = await failWith([reply.rateLimited(late)]);

    expect(first.kind).toBe('rate_limited');
    expect(first.retryAfterMs).toBeGreaterThan(0);
    expect(first.retryAfterMs).toBeLessThanOrEqual(20_000);
    expect(second.retryAfterMs).toBeGreaterThan(MAX_RETRY_AFTER_MS);
    expect(second.retryAfterMs).toBeLessThanOrEqual(10 * 60_000);
    fake.assertDone();
    other.assertDone();
  });

  it('429 insufficient_quota is a permission error with a billing hint, not retried', async () => {
    const { error, fake } = await failWith([reply.error(429, 'insufficient_quota')]);

    expect(error).toMatchObject({ kind: 'permission', status: 429, isRetryable: false });
    expect(error.hint).toContain('OPENAI_API_KEY');
    expect(error.hint).toContain('billing');
    fake.assertDone();
  });

  it('500 is a retryable server error', async () => {
    const { error, fake } = await failWith([reply.serverError()]);

    expect(error).toMatchObject({ kind: 'server', status: 500, isRetryable: true });
    fake.assertDone();
  });

  it.each([503, 529])('%i is overloaded', async (status) => {
    const { error, fake } = await failWith([{ kind: 'error', status, retryAfter: '2' }]);

    expect(error).toMatchObject({ kind: 'overloaded', status, isRetryable: true });
    fake.assertDone();
  });

  it('401 is auth with a hint, and the rejected key appears nowhere', async () => {
    const { error, fake } = await failWith([reply.error(401)]);

    expect(error).toMatchObject({ kind: 'auth', status: 401, isRetryable: false });
    expect(error.hint).toContain('check OPENAI_API_KEY');
    // The fake echoes the key in its error body, as some servers do.
    expect(JSON.stringify(fake.requests.at(-1)?.headers)).toContain(FAKE_OPENAI_KEY);
    for (const text of [
      error.message,
      error.hint ?? '',
      JSON.stringify(error),
      JSON.stringify(error.cause),
      String(error.stack),
    ]) {
      expect(text).not.toContain(FAKE_OPENAI_KEY);
    }
    fake.assertDone();
  });

  it('scrubs the key from a provider message it quotes', async () => {
    const { error, fake } = await failWith([
      { kind: 'error', status: 400, message: `key ${FAKE_OPENAI_KEY} cannot use tools` },
    ]);

    expect(error.kind).toBe('bad_request');
    expect(error.message).toContain('cannot use tools');
    expect(error.message).not.toContain(FAKE_OPENAI_KEY);
    fake.assertDone();
  });

  it('404 is model_not_found', async () => {
    const { error, fake } = await failWith([reply.error(404)]);

    expect(error).toMatchObject({ kind: 'model_not_found', status: 404, isRetryable: false });
    expect(error.message).toContain('gpt-4o');
    fake.assertDone();
  });

  it('400 context_length_exceeded is context_too_long; another 400 is bad_request', async () => {
    const { error: tooLong, fake } = await failWith([reply.error(400, 'context_length_exceeded')]);
    const { error: bad, fake: other } = await failWith([reply.error(400)]);

    expect(tooLong).toMatchObject({ kind: 'context_too_long', status: 400, isRetryable: false });
    expect(bad).toMatchObject({ kind: 'bad_request', status: 400, isRetryable: false });
    fake.assertDone();
    other.assertDone();
  });

  it('answers after a short latency', async () => {
    const fake = await startOpenAiFake([{ ...reply.text('late but fine'), latencyMs: 50 }]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));

    expect((await client.complete(ASK)).text).toBe('late but fine');
    fake.assertDone();
  });

  it('times out when the headers take longer than the timeout', async () => {
    const { error, fake } = await failWith(
      [{ ...reply.text('too late'), latencyMs: NEVER_MS }],
      SHORT_TIMEOUT_MS,
    );

    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    // Under load the timer can fire before the request arrives: the reply may stay unused.
    fake.assertNoSurprises();
  }, 10_000);

  it('times out when a stream stalls between events', async () => {
    const { error, fake } = await failWith(
      [{ kind: 'answer', textChunks: ['a', 'b'], eventDelayMs: NEVER_MS }],
      SHORT_TIMEOUT_MS,
    );

    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    // Under load the timer can fire before the request arrives: the reply may stay unused.
    fake.assertNoSurprises();
  }, 10_000);

  it('a stream cut mid-answer is a retryable connection error, after the partial text', async () => {
    const fake = await startOpenAiFake([
      { kind: 'answer', textChunks: ['one ', 'two ', 'three'], cutAfterEvents: 3 },
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));
    const seen: string[] = [];

    const error = await rejectionOf(
      (async () => {
        for await (const event of client.stream(ASK))
          if (event.type === 'text_delta') seen.push(event.text);
      })(),
    );

    expect(seen).toEqual(['one ', 'two ']);
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
    fake.assertDone();
  });

  it('a malformed event is a retryable server error, not a crash', async () => {
    const fake = await startOpenAiFake([
      { kind: 'answer', textChunks: ['one ', 'two'], malformedAfterEvents: 2 },
    ]);
    const client = createOpenAiClient(openAiRef('gpt-4o'), settingsFor(fake));

    const error = await rejectionOf(collect(client.stream(ASK)));

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      kind: 'server',
      isRetryable: true,
      message: expect.stringContaining('not valid JSON'),
    });
    fake.assertDone();
  });

  it('nothing listening at a local base URL is a connection error asking whether the server runs', async () => {
    const fake = await startOpenAiFake([]);
    const baseURL = `${fake.url}/v1`;
    const port = Number(new URL(fake.url).port);
    await fake.close();
    const client = createOpenAiClient(openAiRef('qwen3', 'local', port), {
      apiKey: 'oy-local',
      baseURL,
    });

    const error = await rejectionOf(client.complete(ASK));

    expect(error).toMatchObject({
      kind: 'connection',
      isRetryable: true,
      hint: `is the server at ${baseURL} running?`,
    });
    fake.assertDone();
  });
});
