import { describe, expect, it } from 'vitest';
import { reply, type ScriptedReply } from '../../fakes/script.js';
import { createBedrockClient } from '../../../src/providers/bedrock/create-bedrock-client.js';
import { ProviderError, type ProviderErrorKind } from '../../../src/providers/provider-error.js';
import type { ModelRequest } from '../../../src/providers/types.js';
import {
  bedrockRef,
  collect,
  collectUntilFailure,
  FAKE_ACCESS_KEY_ID,
  FAKE_SECRET_ACCESS_KEY,
  rejectionOf,
  settingsFor,
  startBedrockFake,
  useAwsEnvironment,
} from './bedrock-fixture.js';

useAwsEnvironment();

const REQUEST: ModelRequest = {
  system: 'You audit code.',
  messages: [{ role: 'user', text: 'Hi' }],
  maxTokens: 256,
};

function expectProviderError(error: unknown, kind: ProviderErrorKind): ProviderError {
  expect(error).toBeInstanceOf(ProviderError);
  const providerError = error as ProviderError;
  expect(providerError.kind).toBe(kind);
  // Whatever failed, no credential may leak into what the user sees.
  const shown = `${providerError.message} ${providerError.hint ?? ''} ${String(providerError.cause ?? '')}`;
  expect(shown).not.toContain(FAKE_ACCESS_KEY_ID);
  expect(shown).not.toContain(FAKE_SECRET_ACCESS_KEY);
  expect(shown).toContain('bedrock::');
  return providerError;
}

describe('Bedrock HTTP errors', () => {
  const cases: {
    name: string;
    reply: ScriptedReply;
    kind: ProviderErrorKind;
    status: number;
    type: string;
  }[] = [
    {
      name: '500',
      reply: reply.serverError(),
      kind: 'server',
      status: 500,
      type: 'InternalServerException',
    },
    {
      name: '503',
      reply: reply.error(503),
      kind: 'overloaded',
      status: 503,
      type: 'ServiceUnavailableException',
    },
    {
      name: "the script's 529",
      reply: reply.overloaded(),
      kind: 'overloaded',
      status: 503,
      type: 'ServiceUnavailableException',
    },
    {
      name: 'model not ready',
      reply: reply.error(429, 'ModelNotReadyException'),
      kind: 'overloaded',
      status: 429,
      type: 'ModelNotReadyException',
    },
    {
      name: '403 AccessDenied',
      reply: reply.error(403),
      kind: 'permission',
      status: 403,
      type: 'AccessDeniedException',
    },
    {
      name: 'an unknown key',
      reply: reply.error(401),
      kind: 'auth',
      status: 403,
      type: 'UnrecognizedClientException',
    },
    {
      name: 'an expired session token',
      reply: reply.error(400, 'ExpiredTokenException'),
      kind: 'auth',
      status: 400,
      type: 'ExpiredTokenException',
    },
    {
      name: 'a bad signature',
      reply: reply.error(403, 'InvalidSignatureException'),
      kind: 'auth',
      status: 403,
      type: 'InvalidSignatureException',
    },
    {
      name: '404',
      reply: reply.error(404),
      kind: 'model_not_found',
      status: 404,
      type: 'ResourceNotFoundException',
    },
    {
      name: 'ValidationException',
      reply: reply.error(400),
      kind: 'bad_request',
      status: 400,
      type: 'ValidationException',
    },
    {
      name: 'a model timeout',
      reply: reply.error(408),
      kind: 'timeout',
      status: 408,
      type: 'ModelTimeoutException',
    },
  ];

  it.each(cases)(
    'classifies $name as $kind, streamed and whole, without retrying',
    async ({ reply: scripted, kind, status, type }) => {
      const fake = await startBedrockFake([scripted, scripted]);
      const client = createBedrockClient(bedrockRef(), settingsFor(fake));

      const whole = expectProviderError(await rejectionOf(client.complete(REQUEST)), kind);
      const { seen, error } = await collectUntilFailure(client.stream(REQUEST));
      const streamed = expectProviderError(error, kind);

      expect(seen).toEqual([]);
      for (const failure of [whole, streamed]) {
        expect(failure.status).toBe(status);
        expect(failure.message).toContain(type);
        expect(failure.hint).toBeTruthy();
      }
      expect(fake.modelCalls).toHaveLength(2);
      fake.assertDone();
    },
  );

  it('reads Retry-After from a throttling answer', async () => {
    const fake = await startBedrockFake([reply.rateLimited('2'), reply.rateLimited('7')]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const whole = expectProviderError(await rejectionOf(client.complete(REQUEST)), 'rate_limited');
    const streamed = expectProviderError(
      (await collectUntilFailure(client.stream(REQUEST))).error,
      'rate_limited',
    );

    expect(whole).toMatchObject({ status: 429, retryAfterMs: 2000 });
    expect(streamed).toMatchObject({ status: 429, retryAfterMs: 7000 });
    expect(whole.message).toContain('ThrottlingException');
    fake.assertDone();
  });

  it('leaves retryAfterMs unset when the throttling answer has no Retry-After', async () => {
    const fake = await startBedrockFake([reply.error(429)]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const error = expectProviderError(await rejectionOf(client.complete(REQUEST)), 'rate_limited');

    expect(error.retryAfterMs).toBeUndefined();
    fake.assertDone();
  });

  it('keeps the service message, which says what was wrong', async () => {
    const fake = await startBedrockFake([
      { kind: 'error', status: 400, message: 'maxTokens must be at most 8192' },
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const error = expectProviderError(await rejectionOf(client.complete(REQUEST)), 'bad_request');

    expect(error.message).toContain('maxTokens must be at most 8192');
    fake.assertDone();
  });
});

describe('Bedrock transport faults', () => {
  it('answers after some latency', async () => {
    const fake = await startBedrockFake([
      { kind: 'answer', text: 'slow but fine', latencyMs: 150 },
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const events = await collect(client.stream(REQUEST));

    expect(events[0]).toEqual({ type: 'text_delta', text: 'slow ' });
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
    fake.assertDone();
  });

  it('times out when the answer takes longer than the request timeout', async () => {
    const fake = await startBedrockFake([{ kind: 'answer', text: 'too late', latencyMs: 30_000 }]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake, { timeoutMs: 100 }));

    expectProviderError(await rejectionOf(client.complete(REQUEST)), 'timeout');
    // Under load the timer can fire before the request arrives: the reply may stay unused.
    fake.assertNoSurprises();
  });

  it('reports a stream cut mid-answer as a connection failure, after the text so far', async () => {
    const fake = await startBedrockFake([
      {
        kind: 'answer',
        text: 'partial answer',
        textChunks: ['partial ', 'answer'],
        cutAfterEvents: 2,
      },
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const { seen, error } = await collectUntilFailure(client.stream(REQUEST));

    expect(seen).toEqual([{ type: 'text_delta', text: 'partial ' }]);
    expectProviderError(error, 'connection');
    fake.assertDone();
  });

  it('reports a corrupt event frame as a server failure, never a hang or a crash', async () => {
    const fake = await startBedrockFake([
      {
        kind: 'answer',
        text: 'partial answer',
        textChunks: ['partial ', 'answer'],
        malformedAfterEvents: 2,
      },
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const { seen, error } = await collectUntilFailure(client.stream(REQUEST));

    expect(seen).toEqual([{ type: 'text_delta', text: 'partial ' }]);
    expectProviderError(error, 'server');
    fake.assertDone();
  });

  it.each([
    {
      exceptionType: 'modelStreamErrorException',
      kind: 'server' as const,
      type: 'ModelStreamErrorException',
    },
    {
      exceptionType: 'throttlingException',
      kind: 'rate_limited' as const,
      type: 'ThrottlingException',
    },
    {
      exceptionType: 'serviceUnavailableException',
      kind: 'overloaded' as const,
      type: 'ServiceUnavailableException',
    },
  ])('classifies an in-stream $exceptionType as $kind', async ({ exceptionType, kind, type }) => {
    const fake = await startBedrockFake(
      [{ kind: 'answer', text: 'partial answer', malformedAfterEvents: 2 }],
      {
        streamExceptionType: exceptionType,
      },
    );
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    const { seen, error } = await collectUntilFailure(client.stream(REQUEST));

    expect(seen).toHaveLength(1);
    expect(expectProviderError(error, kind).message).toContain(type);
    fake.assertDone();
  });

  it('reports a refused connection as a connection failure', async () => {
    const fake = await startBedrockFake([]);
    const settings = settingsFor(fake);
    await fake.close();
    const client = createBedrockClient(bedrockRef(), settings);

    expectProviderError(await rejectionOf(client.complete(REQUEST)), 'connection');
  });
});

describe('Bedrock cancellation', () => {
  it('aborts a stream that is waiting for its next event at once', async () => {
    const fake = await startBedrockFake([{ kind: 'answer', text: 'late', eventDelayMs: 30_000 }]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));
    const controller = new AbortController();

    const pending = collectUntilFailure(client.stream(REQUEST, { signal: controller.signal }));
    await fake.whenRequested();
    controller.abort();

    const { seen, error } = await pending;
    expect(seen).toEqual([]);
    expectProviderError(error, 'aborted');
    fake.assertDone();
  });

  it('aborts after the first text delta, before the rest arrives', async () => {
    // Short gaps: the first delta comes soon; the abort must end the stream before the others.
    const fake = await startBedrockFake([
      {
        kind: 'answer',
        text: 'one two three',
        textChunks: ['one ', 'two ', 'three'],
        eventDelayMs: 20,
      },
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));
    const controller = new AbortController();
    const seen: unknown[] = [];

    const error = await rejectionOf(
      (async () => {
        for await (const event of client.stream(REQUEST, { signal: controller.signal })) {
          seen.push(event);
          if (seen.length === 1) controller.abort();
        }
      })(),
    );

    expect(seen).toEqual([{ type: 'text_delta', text: 'one ' }]);
    expectProviderError(error, 'aborted');
    fake.assertDone();
  });

  it('lets the consumer stop reading early and serves the next call', async () => {
    const fake = await startBedrockFake([
      {
        kind: 'answer',
        text: 'one two three',
        textChunks: ['one ', 'two ', 'three'],
        eventDelayMs: 20,
      },
      reply.text('next'),
    ]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    for await (const event of client.stream(REQUEST)) {
      expect(event).toEqual({ type: 'text_delta', text: 'one ' });
      break;
    }

    expect((await client.complete(REQUEST)).text).toBe('next');
    fake.assertDone();
  });

  it('fails at once, without a request, when the signal is already aborted', async () => {
    const fake = await startBedrockFake([]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));

    expectProviderError(
      await rejectionOf(client.complete(REQUEST, { signal: AbortSignal.abort() })),
      'aborted',
    );
    expectProviderError(
      (await collectUntilFailure(client.stream(REQUEST, { signal: AbortSignal.abort() }))).error,
      'aborted',
    );
    expect(fake.requests).toEqual([]);
    fake.assertDone();
  });

  it('aborts a whole answer that is still waiting', async () => {
    const fake = await startBedrockFake([{ kind: 'answer', text: 'late', latencyMs: 30_000 }]);
    const client = createBedrockClient(bedrockRef(), settingsFor(fake));
    const controller = new AbortController();

    const pending = rejectionOf(client.complete(REQUEST, { signal: controller.signal }));
    await fake.whenRequested();
    controller.abort();

    expectProviderError(await pending, 'aborted');
    fake.assertDone();
  });
});
