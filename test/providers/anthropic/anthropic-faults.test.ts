import { afterEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/providers/types.js';
import { anthropicProtocol } from '../../fakes/anthropic-protocol.js';
import { FakeProviderServer, type ProtocolContext } from '../../fakes/fake-provider-server.js';
import { reply } from '../../fakes/script.js';
import {
  FAKE_API_KEY,
  HELLO,
  REF,
  clientFor,
  collectUntilError,
  providerErrorOf,
  startFake,
} from './anthropic-fixture.js';

/** Longer than the test timeout: a stream this slow only ends in time if the client really hangs up. */
const SLOW_EVENT_DELAY_MS = 120_000;

/** With a 100 ms gap between events, a stream this long takes minutes: far past the test timeout. */
const LONG_STREAM_CHUNKS = 3000;

let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('anthropic client: HTTP errors', () => {
  it('maps 429 to rate_limited with the Retry-After wait', async () => {
    fake = await startFake(reply.rateLimited('7'));
    const error = await providerErrorOf(clientFor(fake).complete(HELLO));

    expect(error).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 7000,
      isRetryable: true,
    });
    expect(error.message).toMatch(/^anthropic::claude-test-1: Anthropic rate limit reached/);
    expect(error.message).toContain('rate_limit_error');
    fake.assertDone();
  });

  it.each([
    { status: 500, kind: 'server', retryable: true },
    { status: 529, kind: 'overloaded', retryable: true },
    { status: 404, kind: 'model_not_found', retryable: false },
    { status: 403, kind: 'permission', retryable: false },
    { status: 413, kind: 'context_too_long', retryable: false },
    { status: 400, kind: 'bad_request', retryable: false },
    { status: 504, kind: 'timeout', retryable: true },
  ])('maps HTTP $status to $kind', async ({ status, kind, retryable }) => {
    fake = await startFake(reply.error(status));
    const error = await providerErrorOf(clientFor(fake).complete(HELLO));

    expect(error).toMatchObject({ kind, status, isRetryable: retryable, retryAfterMs: undefined });
    expect(error.hint).toBeTruthy();
    fake.assertDone();
  });

  it('decides by error type over status: overloaded_error on a 500 is overloaded', async () => {
    fake = await startFake(reply.error(500, 'overloaded_error'));
    const error = await providerErrorOf(clientFor(fake).complete(HELLO));
    expect(error.kind).toBe('overloaded');
    fake.assertDone();
  });

  it('names the model when it is not found, and says where to look', async () => {
    fake = await startFake(reply.error(404));
    const error = await providerErrorOf(clientFor(fake).complete(HELLO));
    expect(error.message).toContain('claude-test-1');
    expect(error.hint).toContain('oy model');
    fake.assertDone();
  });

  it('maps 401 to auth with a hint, and never shows the key, even when the server echoes it', async () => {
    fake = await startFake({
      kind: 'error',
      status: 401,
      message: `invalid x-api-key ${FAKE_API_KEY}`,
    });
    const error = await providerErrorOf(clientFor(fake).complete(HELLO));

    expect(error.kind).toBe('auth');
    expect(error.isRetryable).toBe(false);
    expect(error.hint).toContain('check ANTHROPIC_API_KEY');
    expect(error.message).toContain('invalid x-api-key [redacted]');
    for (const text of [
      error.message,
      error.hint,
      error.stack,
      JSON.stringify(error),
      JSON.stringify(error.cause),
    ]) {
      expect(text).not.toContain(FAKE_API_KEY);
      expect(text).not.toContain('0123456789');
    }
    fake.assertDone();
  });

  it('fails with connection when nothing listens at the base URL', async () => {
    fake = await startFake();
    const client = clientFor(fake);
    await fake.close();
    const error = await providerErrorOf(client.complete(HELLO));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
    expect(error.message).toContain('127.0.0.1');
  });
});

describe('anthropic client: slow, broken and malformed answers', () => {
  it('waits out latency inside the timeout', async () => {
    fake = await startFake({ kind: 'answer', text: 'late but fine', latencyMs: 200 });
    const result = await clientFor(fake).complete(HELLO);
    expect(result.text).toBe('late but fine');
    fake.assertDone();
  });

  it('times out when the headers do not come within the timeout', async () => {
    fake = await startFake({ kind: 'answer', text: 'too late', latencyMs: SLOW_EVENT_DELAY_MS });
    const error = await providerErrorOf(clientFor(fake, { timeoutMs: 100 }).complete(HELLO));
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    fake.assertNoSurprises();
  });

  it('times out when a stream goes quiet for longer than the timeout', async () => {
    fake = await startFake({
      kind: 'answer',
      text: 'stalls after the start',
      eventDelayMs: SLOW_EVENT_DELAY_MS,
    });
    const { seen, error } = await collectUntilError(
      clientFor(fake, { timeoutMs: 100 }).stream(HELLO),
    );
    expect(seen).toEqual([]);
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    fake.assertNoSurprises();
  });

  it('fails with a retryable connection error when the stream is cut mid-answer', async () => {
    // message_start, content_block_start, ping, then the first text delta: cut before the second.
    fake = await startFake({
      kind: 'answer',
      textChunks: ['one ', 'two ', 'three'],
      cutAfterEvents: 4,
    });
    const { seen, error } = await collectUntilError(clientFor(fake).stream(HELLO));

    expect(seen).toEqual([{ type: 'text_delta', text: 'one ' }]);
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
    expect(error.message).toContain('Anthropic');
    fake.assertDone();
  });

  it('fails with a retryable server error on a malformed event', async () => {
    fake = await startFake({
      kind: 'answer',
      textChunks: ['one ', 'two'],
      malformedAfterEvents: 4,
    });
    const { seen, error } = await collectUntilError(clientFor(fake).stream(HELLO));

    expect(seen).toEqual([{ type: 'text_delta', text: 'one ' }]);
    expect(error).toMatchObject({ kind: 'server', isRetryable: true });
    expect(error.message).toContain('not JSON');
    fake.assertDone();
  });
});

describe('anthropic client: cancellation', () => {
  it('aborts mid-stream: the HTTP request closes and the stream ends with aborted', async () => {
    let served!: (closedByClient: boolean) => void;
    const handlerDone = new Promise<boolean>((resolve) => (served = resolve));
    fake = await FakeProviderServer.start({
      handlers: [
        {
          ...anthropicProtocol,
          async respond(context: ProtocolContext) {
            await anthropicProtocol.respond(context);
            served(context.isClosed());
          },
        },
      ],
      // Minutes of stream in all, but the first delta comes after three short gaps.
      script: [
        {
          kind: 'answer',
          textChunks: Array.from({ length: LONG_STREAM_CHUNKS }, (_, i) => `chunk ${i} `),
          eventDelayMs: 100,
        },
      ],
    });
    const controller = new AbortController();
    const seen: StreamEvent[] = [];
    const error = await providerErrorOf(
      (async () => {
        for await (const event of clientFor(fake).stream(HELLO, { signal: controller.signal })) {
          seen.push(event);
          controller.abort();
        }
      })(),
    );

    expect(error).toMatchObject({ kind: 'aborted', isRetryable: false, ref: REF });
    expect(seen).toEqual([{ type: 'text_delta', text: 'chunk 0 ' }]);
    // The fake stops as soon as the client hangs up; had the request stayed open, it would write for minutes.
    expect(await handlerDone).toBe(true);
    fake.assertDone();
  });

  it('releases the connection when the caller stops reading early', async () => {
    let served!: (closedByClient: boolean) => void;
    const handlerDone = new Promise<boolean>((resolve) => (served = resolve));
    fake = await FakeProviderServer.start({
      handlers: [
        {
          ...anthropicProtocol,
          respond: (context) =>
            anthropicProtocol.respond(context).then(() => served(context.isClosed())),
        },
      ],
      script: [
        {
          kind: 'answer',
          textChunks: Array.from({ length: LONG_STREAM_CHUNKS }, (_, i) => `chunk ${i} `),
          eventDelayMs: 100,
        },
      ],
    });
    for await (const event of clientFor(fake).stream(HELLO)) {
      expect(event).toEqual({ type: 'text_delta', text: 'chunk 0 ' });
      break;
    }
    expect(await handlerDone).toBe(true);
    fake.assertDone();
  });

  it('fails at once without a request when the signal is already aborted', async () => {
    fake = await startFake();
    const controller = new AbortController();
    controller.abort();
    const error = await providerErrorOf(
      clientFor(fake).complete(HELLO, { signal: controller.signal }),
    );
    expect(error.kind).toBe('aborted');
    expect(fake.requests).toEqual([]);
    fake.assertDone();
  });

  it('aborts while waiting for the response headers', async () => {
    fake = await startFake({ kind: 'answer', text: 'never seen', latencyMs: SLOW_EVENT_DELAY_MS });
    const controller = new AbortController();
    const pending = clientFor(fake).complete(HELLO, { signal: controller.signal });
    // Cancel once the request has surely arrived: no guess at how long that takes under load.
    await fake.whenRequested();
    controller.abort();
    const error = await providerErrorOf(pending);
    expect(error.kind).toBe('aborted');
    fake.assertDone();
  });
});
