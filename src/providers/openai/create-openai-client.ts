import { DEFAULT_REQUEST_TIMEOUT_MS, type OpenAiSettings } from '../provider-settings.js';
import type {
  CallOptions,
  ModelClient,
  ModelRef,
  ModelRequest,
  ModelResult,
  StreamEvent,
} from '../types.js';
import { gatherModelResult } from '../gather-model-result.js';
import { loadOpenAiSdk, newOpenAiClient } from './load-openai-sdk.js';
import {
  streamOpenAiChat,
  type OpenAiCallSetup,
  type OpenAiConnection,
} from './stream-openai-chat.js';

/**
 * A ModelClient for OpenAI-compatible chat completions (`openai::`, `local-<port>::`, `ollama::`, `openrouter::`).
 * The SDK is loaded on the first call; the client never retries by itself.
 */
export function createOpenAiClient(ref: ModelRef, settings: OpenAiSettings): ModelClient {
  const timeoutMs = settings.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const setup: OpenAiCallSetup = {
    ref,
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    timeoutMs,
  };
  let connection: Promise<OpenAiConnection> | undefined;
  const connect = (): Promise<OpenAiConnection> => {
    if (connection === undefined) {
      connection = loadOpenAiSdk().then((sdk) => ({
        sdk,
        client: newOpenAiClient(sdk, settings, timeoutMs),
      }));
      // A failed load may succeed later: do not cache the failure.
      connection.catch(() => (connection = undefined));
    }
    return connection;
  };
  const stream = (request: ModelRequest, options: CallOptions = {}): AsyncIterable<StreamEvent> =>
    streamOpenAiChat(connect, setup, request, options);
  return {
    ref,
    stream,
    complete: (request: ModelRequest, options: CallOptions = {}): Promise<ModelResult> =>
      gatherModelResult(stream(request, options)),
  };
}
