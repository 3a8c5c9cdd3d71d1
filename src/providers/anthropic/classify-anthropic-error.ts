import { quoteProviderMessage } from '../quote-provider-message.js';
import type * as AnthropicSdk from '@anthropic-ai/sdk';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import { parseRetryAfter, parseRetryAfterMs } from '../retry/parse-retry-after.js';
import { readShouldRetry } from '../retry/read-should-retry.js';
import type { ModelRef } from '../types.js';
import { adviseOnAnthropicError } from './advise-on-anthropic-error.js';

export interface AnthropicErrorContext {
  ref: ModelRef;
  /** The loaded SDK, for its error classes. */
  sdk: typeof AnthropicSdk;
  /** Scrubbed from any text the API sends back, so the key can never reach a message. */
  apiKey: string;
  /** The endpoint's host, named when it cannot be reached. */
  host: string;
}

/** How much of the API's own explanation a message keeps. */

/** The API's `error.type` names the failure; the status decides when the type is missing or new. */
const KIND_BY_TYPE: Record<string, ProviderErrorKind> = {
  authentication_error: 'auth',
  permission_error: 'permission',
  billing_error: 'permission',
  not_found_error: 'model_not_found',
  request_too_large: 'context_too_long',
  rate_limit_error: 'rate_limited',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
  api_error: 'server',
  invalid_request_error: 'bad_request',
};

const KIND_BY_STATUS: Record<number, ProviderErrorKind> = {
  401: 'auth',
  402: 'permission',
  403: 'permission',
  404: 'model_not_found',
  408: 'timeout',
  413: 'context_too_long',
  429: 'rate_limited',
  504: 'timeout',
  529: 'overloaded',
};

/**
 * Any failure of an Anthropic call as a ProviderError, by SDK error class, HTTP status and
 * `error.type`, never by message text. A prompt over the context window comes back as a 400
 * `invalid_request_error` that says so only in words, so it stays `bad_request` (neither is retried).
 */
export function classifyAnthropicError(
  error: unknown,
  context: AnthropicErrorContext,
): ProviderError {
  const { sdk, ref } = context;
  if (error instanceof ProviderError) return error;
  if (error instanceof sdk.APIUserAbortError || isAbortError(error)) {
    return new ProviderError('aborted', ref, 'the Anthropic request was cancelled');
  }
  if (error instanceof sdk.APIConnectionTimeoutError) return timeoutError(ref);
  if (error instanceof sdk.APIConnectionError) {
    return new ProviderError(
      'connection',
      ref,
      `could not reach the Anthropic API at ${context.host}`,
      {
        hint: 'check the network connection and ANTHROPIC_BASE_URL',
        cause: { provider: 'anthropic', name: error.name },
      },
    );
  }
  if (error instanceof sdk.APIError) return apiError(error, context);
  if (error instanceof SyntaxError) {
    return new ProviderError('server', ref, 'Anthropic sent a stream event that is not JSON', {
      hint: 'retry; if it keeps happening, check ANTHROPIC_BASE_URL points at the Anthropic API',
      cause: { provider: 'anthropic', name: error.name },
    });
  }
  // Anything else comes from reading the response body: the connection broke mid-answer.
  return new ProviderError(
    'connection',
    ref,
    'the connection to Anthropic broke during the answer',
    {
      hint: 'retry; if it keeps happening, check the network and any proxy in between',
      cause: { provider: 'anthropic', name: error instanceof Error ? error.name : typeof error },
    },
  );
}

/** No answer, or no further stream event, within the request timeout. */
export function timeoutError(ref: ModelRef, timeoutMs?: number): ProviderError {
  const within = timeoutMs === undefined ? '' : ` within ${Math.round(timeoutMs / 1000)} s`;
  return new ProviderError('timeout', ref, `Anthropic did not answer${within}`, {
    hint: 'retry; if answers are long or the network slow, raise the request timeout',
  });
}

function apiError(error: AnthropicSdk.APIError, context: AnthropicErrorContext): ProviderError {
  const status = error.status;
  const type = error.type ?? undefined;
  const kind =
    (type === undefined ? undefined : KIND_BY_TYPE[type]) ??
    (status === undefined ? undefined : KIND_BY_STATUS[status]) ??
    (status === undefined || status >= 500 ? 'server' : 'bad_request');
  const what = [status === undefined ? 'mid-stream' : `HTTP ${status}`, type]
    .filter(Boolean)
    .join(' ');
  // A 404 without the API's own error body is a gateway or proxy without the route, not an unknown model.
  if (status === 404 && type === undefined) {
    return new ProviderError(
      'bad_request',
      context.ref,
      `the endpoint at ${context.host} has no /v1/messages route (HTTP 404)`,
      {
        status,
        hint: 'check ANTHROPIC_BASE_URL: it should be the root of an Anthropic-compatible API (oy adds /v1/messages)',
      },
    );
  }
  const detail = scrub(error.apiMessage, context.apiKey);
  const retryAfterMs =
    parseRetryAfterMs(error.headers?.get('retry-after-ms')) ??
    parseRetryAfter(error.headers?.get('retry-after'));
  const { summary, hint } = adviseOnAnthropicError(kind, {
    type,
    status,
    ref: context.ref,
    retryAfterMs,
  });
  return new ProviderError(
    kind,
    context.ref,
    `${summary} (${what})${detail ? `: ${detail}` : ''}`,
    {
      hint,
      ...(status === undefined ? {} : { status }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...readShouldRetry(error.headers),
      cause: { provider: 'anthropic', status, type, requestId: error.requestID ?? undefined },
    },
  );
}

/** The API's explanation, shortened, with the key removed in case an endpoint echoes it. */
function scrub(text: string | null, apiKey: string): string {
  return quoteProviderMessage(text, [apiKey]);
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
