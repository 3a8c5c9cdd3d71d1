import * as sdk from 'openai';
import { describe, expect, it } from 'vitest';
import { CallSignal } from '../../../src/providers/openai/call-signal.js';
import { classifyOpenAiError } from '../../../src/providers/openai/classify-openai-error.js';
import { openAiRef } from './openai-fixture.js';

// Errors the fake cannot send: error events inside a stream (no HTTP status), OpenAI's `retry-after-ms`.

function classify(error: unknown) {
  const call = new CallSignal(undefined, 60_000);
  try {
    const context = {
      ref: openAiRef('x', 'openrouter'),
      baseURL: 'https://user:pw@openrouter.example/api/v1',
      apiKey: 'k-secret',
      timeoutMs: 1,
      call,
    };
    return classifyOpenAiError(sdk, error, context);
  } finally {
    call.dispose();
  }
}

describe('classifyOpenAiError', () => {
  it('reads the status OpenRouter puts in the code of an in-stream error', () => {
    const error = new sdk.APIError(
      undefined,
      { message: 'upstream failed', code: 502 },
      undefined,
      undefined,
    );

    expect(classify(error)).toMatchObject({ kind: 'server', status: 502, isRetryable: true });
  });

  it('classifies in-stream errors without a status by code and type', () => {
    const rateLimited = new sdk.APIError(
      undefined,
      { code: 'rate_limit_exceeded', type: 'tokens' },
      undefined,
      undefined,
    );
    const tooLong = new sdk.APIError(
      undefined,
      { code: 'context_length_exceeded' },
      undefined,
      undefined,
    );
    const other = new sdk.APIError(undefined, { type: 'server_error' }, undefined, undefined);

    expect(classify(rateLimited)).toMatchObject({ kind: 'rate_limited' });
    expect(classify(tooLong)).toMatchObject({ kind: 'context_too_long' });
    expect(classify(other)).toMatchObject({ kind: 'server', status: undefined });
  });

  it('prefers retry-after-ms, as asked', () => {
    const headers = new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' });
    const capped = new Headers({ 'retry-after-ms': '600000' });

    expect(classify(new sdk.RateLimitError(429, {}, undefined, headers))?.retryAfterMs).toBe(1_500);
    expect(classify(new sdk.RateLimitError(429, {}, undefined, capped))?.retryAfterMs).toBe(
      600_000,
    );
  });

  it('shows the base URL without its credentials in a connection hint', () => {
    const error = classify(new sdk.APIConnectionError({ message: 'fetch failed' }));

    expect(error?.kind).toBe('connection');
    expect(error?.hint).toContain('https://openrouter.example/api/v1');
    expect(error?.hint).not.toContain('pw');
  });

  it('leaves errors that are not the SDK’s to the caller', () => {
    expect(classify(new TypeError('bug'))).toBeUndefined();
  });
});
