import type * as AnthropicSdk from '@anthropic-ai/sdk';
import { DEFAULT_REQUEST_TIMEOUT_MS, type AnthropicSettings } from '../provider-settings.js';
import type { CallOptions, ModelClient, ModelRef, ModelRequest, StreamEvent } from '../types.js';
import {
  classifyAnthropicError,
  timeoutError,
  type AnthropicErrorContext,
} from './classify-anthropic-error.js';
import { gatherModelResult } from '../gather-model-result.js';
import { createEventNamingFetch } from './name-sse-events.js';
import { readAnthropicStream } from './read-anthropic-stream.js';
import { toAnthropicRequest } from './to-anthropic-request.js';
import { watchRequest, type RequestWatch } from './watch-request.js';

/** The SDK's own endpoint, named in messages when no base URL is set. */
const DEFAULT_ANTHROPIC_HOST = 'api.anthropic.com';

export interface LoadedSdk {
  sdk: typeof AnthropicSdk;
  client: AnthropicSdk.Anthropic;
}

/**
 * A ModelClient over the Anthropic Messages API. The SDK loads on the first call, so importing
 * this module costs nothing at start-up. It never retries (the shared retry wrapper does), and
 * `settings.timeoutMs` bounds each wait on the provider: the response headers and every gap between
 * stream events. Both `stream()` and `complete()` stream on the wire.
 */
export function createAnthropicClient(ref: ModelRef, settings: AnthropicSettings): ModelClient {
  let loading: Promise<LoadedSdk> | undefined;
  const load = () => (loading ??= loadSdk(settings));
  const stream = (request: ModelRequest, options: CallOptions = {}) =>
    streamMessages(load, ref, settings, request, options);
  return {
    ref,
    stream,
    complete: (request, options) => gatherModelResult(stream(request, options)),
  };
}

/** The SDK and one client for these settings: no retries, the request timeout, no logging. */
export async function loadSdk(settings: AnthropicSettings): Promise<LoadedSdk> {
  const sdk = await import('@anthropic-ai/sdk');
  const client = new sdk.Anthropic({
    apiKey: settings.apiKey,
    // null, not undefined: the caller already resolved ANTHROPIC_BASE_URL, so the SDK must not read it again.
    baseURL: settings.baseURL ?? null,
    maxRetries: 0,
    timeout: settings.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    // Core code never prints: failures reach the caller as ProviderErrors instead.
    logLevel: 'off',
    // Gateways that send data-only SSE are read too (the SDK alone skips events without a name).
    fetch: createEventNamingFetch(),
  });
  return { sdk, client };
}

async function* streamMessages(
  load: () => Promise<LoadedSdk>,
  ref: ModelRef,
  settings: AnthropicSettings,
  request: ModelRequest,
  options: CallOptions,
): AsyncGenerator<StreamEvent> {
  const { sdk, client } = await load();
  const timeoutMs = settings.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const watch = watchRequest(options.signal, timeoutMs);
  const context: AnthropicErrorContext = {
    ref,
    sdk,
    apiKey: settings.apiKey,
    host: hostOf(settings.baseURL),
  };
  // Outside the try: a mapping bug must surface as itself, not as a retryable provider failure.
  const params = toAnthropicRequest(ref, request);
  try {
    const events = await watch.during(() =>
      client.messages.create(params, { signal: watch.signal }),
    );
    yield* readAnthropicStream(watchEvents(events, watch), ref);
  } catch (error) {
    // The SDK ends an aborted stream quietly, so the watch, not the error, says why it ended.
    if (watch.isCancelled) throw classifyAnthropicError(new sdk.APIUserAbortError(), context);
    if (watch.isTimedOut) throw timeoutError(ref, timeoutMs);
    throw classifyAnthropicError(error, context);
  } finally {
    watch.dispose();
  }
}

/** The SDK's events, each awaited under the idle timer. */
async function* watchEvents(
  events: AsyncIterable<unknown>,
  watch: RequestWatch,
): AsyncGenerator<unknown> {
  const iterator = events[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await watch.during(() => iterator.next());
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Stopping early (the caller broke off, or we did at message_stop) releases the HTTP response.
    await iterator.return?.();
  }
}

/** The endpoint's host, as messages name it. */
export function hostOf(baseURL: string | undefined): string {
  if (baseURL === undefined) return DEFAULT_ANTHROPIC_HOST;
  try {
    return new URL(baseURL).host;
  } catch {
    return 'the configured ANTHROPIC_BASE_URL';
  }
}
