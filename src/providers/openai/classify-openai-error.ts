import { quoteProviderMessage } from '../quote-provider-message.js';
import type { APIError } from 'openai';
import { ProviderError, type ProviderErrorKind } from '../provider-error.js';
import { parseRetryAfter, parseRetryAfterMs } from '../retry/parse-retry-after.js';
import { readShouldRetry } from '../retry/read-should-retry.js';
import type { ModelRef } from '../types.js';
import type { CallSignal } from './call-signal.js';
import type { OpenAiSdk } from './load-openai-sdk.js';
import { displayUrl } from '../display-url.js';
import { connectionHint, credentialHint, quotaHint } from './openai-hints.js';

/** Longest provider message we pass on; the rest is noise in a one-line error. */

export interface OpenAiErrorContext {
  ref: ModelRef;
  baseURL: string;
  /** Only to scrub it from any provider message we quote. */
  apiKey: string;
  timeoutMs: number;
  call: CallSignal;
}

/**
 * The ProviderError for a failure the SDK raised, decided by HTTP status and OpenAI's `code`/`type`,
 * never by message text; undefined for anything that is not the SDK's (the caller decides).
 * The SDK error is never attached as the cause: only its status, type and code are kept.
 */
export function classifyOpenAiError(
  sdk: OpenAiSdk,
  error: unknown,
  context: OpenAiErrorContext,
): ProviderError | undefined {
  const { ref } = context;
  if (error instanceof ProviderError) return error;
  if (context.call.isTimedOut) return timeoutError(context);
  if (context.call.isCallerAborted || error instanceof sdk.APIUserAbortError) {
    return new ProviderError('aborted', ref, 'the request was cancelled');
  }
  if (error instanceof sdk.APIConnectionTimeoutError) return timeoutError(context);
  if (error instanceof sdk.APIConnectionError) {
    return new ProviderError('connection', ref, 'could not connect', {
      hint: connectionHint(ref, context.baseURL),
    });
  }
  if (error instanceof sdk.APIError) return fromApiError(error, context);
  return undefined;
}

function timeoutError({ ref, timeoutMs, baseURL }: OpenAiErrorContext): ProviderError {
  return new ProviderError('timeout', ref, `no answer within ${timeoutMs} ms`, {
    hint: connectionHint(ref, baseURL),
  });
}

function fromApiError(error: APIError, context: OpenAiErrorContext): ProviderError {
  const { ref } = context;
  const code = typeof error.code === 'string' ? error.code : undefined;
  const type = typeof error.type === 'string' ? error.type : undefined;
  // Errors sent inside a stream have no HTTP status; OpenRouter puts one in `code`.
  const status =
    error.status ?? (typeof error.code === 'number' ? (error.code as number) : undefined);
  const cause = { status, type, code };
  // The server's retry advice applies whatever the kind: a 503 may ask for a wait, a 429 may say never.
  const options = {
    ...(status === undefined ? {} : { status }),
    ...retryAfter(error.headers),
    ...readShouldRetry(error.headers),
    cause,
  };
  const said = providerMessage(error, context.apiKey);

  if (code === 'insufficient_quota' || type === 'insufficient_quota') {
    return new ProviderError('permission', ref, 'the account has no quota left', {
      ...options,
      hint: quotaHint(ref),
    });
  }
  if (code === 'context_length_exceeded') {
    return new ProviderError(
      'context_too_long',
      ref,
      `the request is longer than the model's context window${said}`,
      {
        ...options,
        hint: 'shorten the input or start a new conversation',
      },
    );
  }
  const kind = kindForStatus(status, code, type);
  switch (kind) {
    case 'auth':
      // The provider's words may quote the rejected key: leave them out.
      return new ProviderError(kind, ref, `the API key was rejected (${status})`, {
        ...options,
        hint: credentialHint(ref),
      });
    case 'permission':
      return new ProviderError(kind, ref, `access denied (${status})${said}`, {
        ...options,
        hint: credentialHint(ref),
      });
    case 'model_not_found':
      // No OpenAI error body: a server without this route, or one that says no more than 404.
      if (error.error === undefined)
        return new ProviderError(
          'bad_request',
          ref,
          `${displayUrl(context.baseURL)} answered 404 without an error body: there is no chat-completions route there, or no model "${ref.model}"`,
          {
            ...options,
            hint: 'check the base URL (it usually ends in /v1; oy adds /chat/completions) and the model id; oy model lists the models each endpoint serves',
          },
        );
      return new ProviderError(
        kind,
        ref,
        `the endpoint does not serve model "${ref.model}"${said}`,
        {
          ...options,
          hint: 'check the model id; oy model lists the models each endpoint serves',
        },
      );
    case 'rate_limited':
      return new ProviderError(kind, ref, `rate limited${said}`, {
        ...options,
        hint: 'wait a little, or lower the concurrency',
      });
    default:
      return new ProviderError(
        kind,
        ref,
        `${describe(kind)}${status === undefined ? '' : ` (${status})`}${said}`,
        options,
      );
  }
}

function kindForStatus(
  status: number | undefined,
  code: string | undefined,
  type: string | undefined,
): ProviderErrorKind {
  if (status === undefined) {
    const isRateLimit = code === 'rate_limit_exceeded' || type === 'requests' || type === 'tokens';
    return isRateLimit ? 'rate_limited' : 'server';
  }
  if (status === 401) return 'auth';
  if (status === 403) return 'permission';
  if (status === 404) return 'model_not_found';
  if (status === 408) return 'timeout';
  // The SDK itself treats a conflict as a transient lock.
  if (status === 409) return 'server';
  if (status === 413) return 'context_too_long';
  if (status === 429) return 'rate_limited';
  // 529 is Anthropic's overload status; compatible proxies pass it on.
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  return 'bad_request';
}

function describe(kind: ProviderErrorKind): string {
  if (kind === 'overloaded') return 'the server is overloaded';
  if (kind === 'server') return 'the server failed';
  if (kind === 'timeout') return 'the server timed out';
  if (kind === 'context_too_long') return 'the request is too large';
  return 'the request was rejected';
}

/** `retry-after-ms` (OpenAI's own) or `retry-after` (seconds or an HTTP date), as asked. */
function retryAfter(headers: Headers | undefined): { retryAfterMs?: number } {
  const asked =
    parseRetryAfterMs(headers?.get('retry-after-ms')) ??
    parseRetryAfter(headers?.get('retry-after'));
  return asked === undefined ? {} : { retryAfterMs: asked };
}

/** The provider's own explanation, on one line, without the key, or '' when it gave none. */
function providerMessage(error: APIError, apiKey: string): string {
  const text = quoteProviderMessage((error.error as { message?: unknown } | undefined)?.message, [
    apiKey,
  ]);
  return text === '' ? '' : `: ${text}`;
}
