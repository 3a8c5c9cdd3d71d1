import * as sdk from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { classifyAnthropicError } from '../../../src/providers/anthropic/classify-anthropic-error.js';
import { FAKE_API_KEY, REF } from './anthropic-fixture.js';

const context = { ref: REF, sdk, apiKey: FAKE_API_KEY, host: 'api.anthropic.com' };

function apiError(
  status: number | undefined,
  type: string | undefined,
  headers: Record<string, string> = {},
): sdk.APIError {
  const body = { type: 'error', error: { type, message: `fake ${type}` } };
  return status === undefined
    ? new sdk.APIError(
        undefined,
        body,
        undefined,
        new Headers(headers),
        type as sdk.APIError['type'],
      )
    : sdk.APIError.generate(status, body, undefined, new Headers(headers));
}

describe('classifyAnthropicError', () => {
  it.each([
    // An `event: error` inside a stream carries a type but no status.
    [undefined, 'overloaded_error', 'overloaded'],
    [undefined, 'api_error', 'server'],
    [undefined, 'something_new_error', 'server'],
    [402, 'billing_error', 'permission'],
    [408, undefined, 'timeout'],
    [418, undefined, 'bad_request'],
    [422, 'invalid_request_error', 'bad_request'],
    [503, undefined, 'server'],
    [529, undefined, 'overloaded'],
  ])('status %s with type %s is %s', (status, type, kind) => {
    expect(classifyAnthropicError(apiError(status, type), context).kind).toBe(kind);
  });

  it('says billing when the API refuses for billing reasons', () => {
    const error = classifyAnthropicError(apiError(402, 'billing_error'), context);
    expect(error.message).toContain('billing');
    expect(error.hint).toContain('credit balance');
  });

  it('reads a Retry-After HTTP date as asked, and says it (the retry wrapper caps the wait)', () => {
    const later = new Date(Date.now() + 10 * 60_000).toUTCString();
    const error = classifyAnthropicError(
      apiError(429, 'rate_limit_error', { 'retry-after': later }),
      context,
    );
    expect(error.retryAfterMs).toBeGreaterThan(9 * 60_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(10 * 60_000);
    expect(error.message).toMatch(/asks to wait 10 min/);
  });

  it('maps the SDK connection classes', () => {
    expect(classifyAnthropicError(new sdk.APIConnectionTimeoutError(), context).kind).toBe(
      'timeout',
    );
    expect(
      classifyAnthropicError(new sdk.APIConnectionError({ message: 'refused' }), context).kind,
    ).toBe('connection');
    expect(classifyAnthropicError(new sdk.APIUserAbortError(), context).kind).toBe('aborted');
  });

  it('keeps only the status, type and request id of an API error as its cause', () => {
    const error = classifyAnthropicError(
      apiError(500, 'api_error', { 'request-id': 'req_123' }),
      context,
    );
    expect(error.cause).toEqual({
      provider: 'anthropic',
      status: 500,
      type: 'api_error',
      requestId: 'req_123',
    });
  });
});
