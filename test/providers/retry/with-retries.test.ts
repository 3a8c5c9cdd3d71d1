import { describe, expect, it } from 'vitest';
import { ProviderError, type ProviderErrorKind } from '../../../src/providers/provider-error.js';
import { abortableSleep } from '../../../src/providers/retry/abortable-sleep.js';
import { withRetries, type RetryInfo } from '../../../src/providers/retry/with-retries.js';
import {
  EMPTY_USAGE,
  type ModelClient,
  type ModelRef,
  type ModelRequest,
  type ModelResult,
  type StreamEvent,
} from '../../../src/providers/types.js';

const ref: ModelRef = { provider: 'anthropic', model: 'claude-test', id: 'anthropic::claude-test' };
const request: ModelRequest = {
  system: 's',
  messages: [{ role: 'user', text: 'hi' }],
  maxTokens: 10,
};
const result: ModelResult = {
  text: 'ok',
  toolCalls: [],
  usage: EMPTY_USAGE,
  stopReason: 'end_turn',
};

/** One scripted outcome per call: an error to throw, or events to yield then optionally an error. */
type Step = ProviderError | Error | { events: StreamEvent[]; thenThrow?: ProviderError };
const ok: Step = { events: [] };

/** A strict scripted client: each call takes the next step, and a call past the script fails the test. */
function scriptedClient(steps: Step[]) {
  let calls = 0;
  const next = (): Step => {
    const step = steps[calls++];
    if (!step) throw new Error(`unexpected call ${calls}`);
    return step;
  };
  const client: ModelClient = {
    ref,
    async complete() {
      const step = next();
      if (step instanceof Error) throw step;
      return result;
    },
    async *stream() {
      const step = next();
      if (step instanceof Error) throw step;
      yield* step.events;
      if (step.thenThrow) throw step.thenThrow;
    },
  };
  return { client, calls: () => calls };
}

const fail = (kind: ProviderErrorKind, retryAfterMs?: number) =>
  new ProviderError(
    kind,
    ref,
    `${kind} failure`,
    retryAfterMs === undefined ? {} : { retryAfterMs },
  );

/** Records the waits instead of sleeping; random fixed at the top of its range unless given. */
function recorder(random = () => 0.999_999) {
  const delays: number[] = [];
  const retries: RetryInfo[] = [];
  return {
    delays,
    retries,
    policy: {
      random,
      sleep: async (ms: number) => {
        delays.push(ms);
      },
      onRetry: (info: RetryInfo) => retries.push(info),
    },
  };
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const retryable: ProviderErrorKind[] = [
  'rate_limited',
  'overloaded',
  'server',
  'connection',
  'timeout',
];
const final: ProviderErrorKind[] = [
  'auth',
  'permission',
  'bad_request',
  'model_not_found',
  'context_too_long',
  'aborted',
];

describe('withRetries: complete()', () => {
  it.each(retryable)('retries %s and then succeeds', async (kind) => {
    const { client, calls } = scriptedClient([fail(kind), fail(kind), ok]);
    const { policy, delays } = recorder();
    expect(await withRetries(client, policy).complete(request)).toEqual(result);
    expect(calls()).toBe(3);
    expect(delays).toHaveLength(2);
  });

  it.each(final)('never retries %s', async (kind) => {
    const { client, calls } = scriptedClient([fail(kind)]);
    const { policy, delays } = recorder();
    await expect(withRetries(client, policy).complete(request)).rejects.toMatchObject({ kind });
    expect(calls()).toBe(1);
    expect(delays).toEqual([]);
  });

  it('does not retry errors that are not provider errors', async () => {
    const { client, calls } = scriptedClient([new TypeError('bug')]);
    await expect(withRetries(client, recorder().policy).complete(request)).rejects.toThrow('bug');
    expect(calls()).toBe(1);
  });

  it('gives up after four attempts with the last error', async () => {
    const errors = [fail('server'), fail('overloaded'), fail('timeout'), fail('rate_limited')];
    const { client, calls } = scriptedClient(errors);
    const { policy, retries } = recorder();
    await expect(withRetries(client, policy).complete(request)).rejects.toBe(errors[3]);
    expect(calls()).toBe(4);
    expect(retries.map((r) => [r.attempt, r.maxAttempts, r.error.kind])).toEqual([
      [1, 4, 'server'],
      [2, 4, 'overloaded'],
      [3, 4, 'timeout'],
    ]);
  });

  it('honours maxAttempts', async () => {
    const { client, calls } = scriptedClient([fail('server'), fail('server')]);
    await expect(
      withRetries(client, { ...recorder().policy, maxAttempts: 2 }).complete(request),
    ).rejects.toMatchObject({ kind: 'server' });
    expect(calls()).toBe(2);
  });

  it('backs off exponentially: 500, 1000, 2000 ms ceilings with random at the top', async () => {
    const { client } = scriptedClient([
      fail('server'),
      fail('server'),
      fail('server'),
      fail('server'),
    ]);
    const { policy, delays } = recorder();
    await expect(withRetries(client, policy).complete(request)).rejects.toThrow();
    expect(delays).toEqual([499, 999, 1999]);
  });

  it('keeps full jitter within [0, ceiling)', async () => {
    for (const value of [0, 0.25, 0.5, 0.999]) {
      const { client } = scriptedClient([fail('server'), fail('server'), ok]);
      const { policy, delays } = recorder(() => value);
      await withRetries(client, policy).complete(request);
      expect(delays).toEqual([Math.floor(value * 500), Math.floor(value * 1000)]);
    }
  });

  it('caps the backoff at maxDelayMs', async () => {
    const steps = Array.from({ length: 5 }, () => fail('server'));
    const { client } = scriptedClient(steps);
    const { policy, delays } = recorder();
    await expect(
      withRetries(client, {
        ...policy,
        maxAttempts: 5,
        baseDelayMs: 1000,
        maxDelayMs: 3000,
      }).complete(request),
    ).rejects.toThrow();
    expect(delays).toEqual([999, 1999, 2999, 2999]);
  });

  it('waits at least Retry-After even when the jitter is smaller', async () => {
    const { client } = scriptedClient([fail('rate_limited', 7000), ok]);
    const { policy, delays } = recorder(() => 0);
    await withRetries(client, policy).complete(request);
    expect(delays).toEqual([7000]);
  });

  it('keeps the larger backoff when Retry-After is short', async () => {
    const steps = [fail('server'), fail('server'), fail('rate_limited', 100), ok];
    const { client } = scriptedClient(steps);
    const { policy, delays } = recorder();
    await withRetries(client, policy).complete(request);
    expect(delays).toEqual([499, 999, 1999]);
  });

  it('caps a Retry-After wait at 60 s when the remaining attempts can cover it', async () => {
    const { client } = scriptedClient([fail('rate_limited', 150_000), ok]);
    const { policy, delays } = recorder(() => 0);
    await withRetries(client, policy).complete(request);
    expect(delays).toEqual([60_000]);
  });

  it('does not retry early when the asked wait is longer than the attempts left could honour', async () => {
    const elevenDays = 11 * 24 * 3_600_000;
    const { client, calls } = scriptedClient([fail('rate_limited', elevenDays), ok]);
    const { policy, delays } = recorder(() => 0);
    const error = (await withRetries(client, policy)
      .complete(request)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      )) as ProviderError;
    expect(calls()).toBe(1);
    expect(delays).toEqual([]);
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: elevenDays });
    expect(error.hint).toMatch(/asks to wait 11 days/);
    // The model id is named once, not once per wrapping.
    expect(error.message.split(ref.id)).toHaveLength(2);
  });

  it('stops waiting the moment the signal aborts, with kind aborted', async () => {
    const { client, calls } = scriptedClient([fail('rate_limited', 60_000)]);
    const controller = new AbortController();
    const retried = withRetries(client, {
      onRetry: () => setImmediate(() => controller.abort()),
    });
    const error = await retried
      .complete(request, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'aborted', exitCode: 130 });
    expect(calls()).toBe(1);
  });

  it('does not wait at all when the signal is already aborted', async () => {
    const { client } = scriptedClient([fail('server')]);
    const { policy, delays } = recorder();
    const controller = new AbortController();
    controller.abort();
    await expect(
      withRetries(client, policy).complete(request, { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: 'aborted' });
    expect(delays).toEqual([]);
  });
});

describe('withRetries: stream()', () => {
  const text = (t: string): StreamEvent => ({ type: 'text_delta', text: t });
  const stop: StreamEvent = { type: 'stop', reason: 'end_turn' };

  it('retries a failure that came before any event', async () => {
    const { client, calls } = scriptedClient([fail('overloaded'), { events: [text('hi'), stop] }]);
    const { policy, delays } = recorder();
    expect(await collect(withRetries(client, policy).stream(request))).toEqual([text('hi'), stop]);
    expect(calls()).toBe(2);
    expect(delays).toHaveLength(1);
  });

  it('retries a stream that broke before its first event', async () => {
    const steps: Step[] = [{ events: [], thenThrow: fail('connection') }, { events: [stop] }];
    const { client, calls } = scriptedClient(steps);
    expect(await collect(withRetries(client, recorder().policy).stream(request))).toEqual([stop]);
    expect(calls()).toBe(2);
  });

  it('throws a break after output to the caller, with the partial events already delivered', async () => {
    const broken = fail('connection');
    const { client, calls } = scriptedClient([{ events: [text('par')], thenThrow: broken }]);
    const { policy, delays } = recorder();
    const seen: StreamEvent[] = [];
    const error = await (async () => {
      for await (const event of withRetries(client, policy).stream(request)) seen.push(event);
    })().catch((e: unknown) => e);
    // The same failure, with advice that does not promise a retry that will not happen.
    expect(error).toMatchObject({ kind: 'connection', message: broken.message, cause: broken });
    expect((error as ProviderError).hint).toMatch(/was not retried: send the prompt again/);
    expect(seen).toEqual([text('par')]);
    expect(calls()).toBe(1);
    expect(delays).toEqual([]);
  });

  it('does not retry a final kind in a stream', async () => {
    const { client, calls } = scriptedClient([fail('auth')]);
    await expect(
      collect(withRetries(client, recorder().policy).stream(request)),
    ).rejects.toMatchObject({
      kind: 'auth',
    });
    expect(calls()).toBe(1);
  });

  it('gives up a stream after four attempts', async () => {
    const { client, calls } = scriptedClient([
      fail('server'),
      fail('server'),
      fail('server'),
      fail('server'),
    ]);
    await expect(
      collect(withRetries(client, recorder().policy).stream(request)),
    ).rejects.toMatchObject({
      kind: 'server',
    });
    expect(calls()).toBe(4);
  });

  it('aborts a stream during backoff', async () => {
    const { client, calls } = scriptedClient([fail('rate_limited', 60_000)]);
    const controller = new AbortController();
    const retried = withRetries(client, { onRetry: () => setImmediate(() => controller.abort()) });
    await expect(
      collect(retried.stream(request, { signal: controller.signal })),
    ).rejects.toMatchObject({
      kind: 'aborted',
    });
    expect(calls()).toBe(1);
  });
});

describe('abortableSleep', () => {
  it('rejects at once when aborted', async () => {
    const controller = new AbortController();
    const waiting = abortableSleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });

  it('resolves after the time', async () => {
    await expect(abortableSleep(1)).resolves.toBeUndefined();
  });
});
