import { ProviderError } from '../provider-error.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResult, StreamEvent } from '../types.js';
import { abortableSleep } from './abortable-sleep.js';
import { backoffDelay } from './backoff-delay.js';
import { describeWait, MAX_RETRY_AFTER_MS } from './parse-retry-after.js';

/** Four attempts in all (README.md "Models and providers"). */
export const DEFAULT_MAX_ATTEMPTS = 4;
/** Half a second, doubling: 0.5, 1, 2 s ceilings before jitter. */
export const DEFAULT_BASE_DELAY_MS = 500;
/** No single backoff wait longer than a minute, the same cap as Retry-After. */
export const DEFAULT_MAX_DELAY_MS = 60_000;

export interface RetryInfo {
  /** The attempt that failed, from 1. */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  error: ProviderError;
}

export interface RetryPolicy {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
  /** Waits `ms`; must reject promptly when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told before each wait, so the CLI can say "rate limited, retrying in 2 s". */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Wraps a client so retryable failures (rate limits, overload, server, connection, timeout) are tried again
 * with exponential backoff, full jitter and Retry-After (waited up to a minute; a longer wait than the
 * remaining attempts could cover ends the call with that wait in the hint); `x-should-retry` overrides the
 * kind either way. `complete()` retries the whole call; `stream()` retries only while nothing has been
 * yielded, because the caller has already shown what came before a break.
 */
export function withRetries(client: ModelClient, policy: RetryPolicy = {}): ModelClient {
  const maxAttempts = Math.max(1, policy.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const backoff = {
    baseDelayMs: policy.baseDelayMs ?? DEFAULT_BASE_DELAY_MS,
    maxDelayMs: policy.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
    random: policy.random ?? Math.random,
  };
  const sleep = policy.sleep ?? abortableSleep;

  /** Throws the error unless another attempt is due, after waiting for it. */
  async function waitOrThrow(error: unknown, attempt: number, signal: AbortSignal | undefined) {
    if (!(error instanceof ProviderError) || !error.isRetryable || attempt >= maxAttempts) {
      throw error;
    }
    if (signal?.aborted) throw abortedError(error);
    // A wait the remaining attempts could not honour (each waits at most a minute) is not retried early.
    const asked = error.retryAfterMs;
    if (asked !== undefined && asked > (maxAttempts - attempt) * MAX_RETRY_AFTER_MS)
      throw tooLongToWait(error, asked);
    const delayMs = backoffDelay(attempt, error.retryAfterMs, backoff);
    policy.onRetry?.({ attempt, maxAttempts, delayMs, error });
    try {
      await sleep(delayMs, signal);
    } catch {
      throw abortedError(error);
    }
    if (signal?.aborted) throw abortedError(error);
  }

  return {
    ref: client.ref,
    async complete(request: ModelRequest, options?: CallOptions): Promise<ModelResult> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await client.complete(request, options);
        } catch (error) {
          await waitOrThrow(error, attempt, options?.signal);
        }
      }
    },
    async *stream(request: ModelRequest, options?: CallOptions): AsyncIterable<StreamEvent> {
      for (let attempt = 1; ; attempt++) {
        let hasYielded = false;
        try {
          for await (const event of client.stream(request, options)) {
            hasYielded = true;
            yield event;
          }
          return;
        } catch (error) {
          if (hasYielded) throw notRetriedMidAnswer(error);
          await waitOrThrow(error, attempt, options?.signal);
        }
      }
    },
  };
}

function abortedError(cause: ProviderError): ProviderError {
  return new ProviderError('aborted', cause.ref, 'cancelled while waiting to retry', {
    hint: 'the request was interrupted',
    cause,
  });
}

function tooLongToWait(cause: ProviderError, askedMs: number): ProviderError {
  const prefix = `${cause.ref.id}: `;
  const message = cause.message.startsWith(prefix)
    ? cause.message.slice(prefix.length)
    : cause.message;
  return new ProviderError(cause.kind, cause.ref, message, {
    hint: `the service asks to wait ${describeWait(askedMs)} before trying again, longer than oy waits (a minute at a time): try again after that`,
    ...(cause.status === undefined ? {} : { status: cause.status }),
    retryAfterMs: askedMs,
    shouldRetry: false,
    cause,
  });
}

/** A retryable failure after the answer began is not retried here: its hint must not say it will be. */
function notRetriedMidAnswer(error: unknown): unknown {
  if (!(error instanceof ProviderError) || !error.isRetryable) return error;
  return new ProviderError(error.kind, error.ref, withoutRefPrefix(error), {
    hint: 'the answer broke off after it had started, so it was not retried: send the prompt again',
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    cause: error,
  });
}

/** The message without the `provider::model: ` prefix ProviderError adds, to wrap it without repeating it. */
function withoutRefPrefix(error: ProviderError): string {
  const prefix = `${error.ref.id}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}
