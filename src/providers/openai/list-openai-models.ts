import { EXIT, OyError } from '../../shared/errors.js';
import type { OpenAiSettings } from '../provider-settings.js';
import { CallSignal } from './call-signal.js';
import { loadOpenAiSdk, newOpenAiClient } from './load-openai-sdk.js';
import { displayUrl } from '../display-url.js';

/** `oy model` asks each configured endpoint for its models and gives up after this long (README.md "Models and providers"). */
export const MODEL_LISTING_TIMEOUT_MS = 5_000;

export interface ListOpenAiModelsOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * The model ids an OpenAI-compatible endpoint serves (`GET <baseURL>/models`), in its order.
 * Fails with an OyError that names the endpoint (never the key); entries without a string id are skipped.
 */
export async function listOpenAiModels(
  settings: OpenAiSettings,
  { signal, timeoutMs = MODEL_LISTING_TIMEOUT_MS }: ListOpenAiModelsOptions = {},
): Promise<string[]> {
  const sdk = await loadOpenAiSdk();
  const client = newOpenAiClient(sdk, settings, timeoutMs);
  const call = new CallSignal(signal, timeoutMs);
  const where = displayUrl(settings.baseURL);
  try {
    const page = await client.models.list({ signal: call.signal });
    const entries: unknown[] = Array.isArray(page.data) ? page.data : [];
    return entries.flatMap((entry) => {
      const id =
        typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
      return typeof id === 'string' && id !== '' ? [id] : [];
    });
  } catch (error) {
    if (call.isCallerAborted) {
      throw new OyError(`listing models at ${where} was cancelled`, EXIT.interrupted);
    }
    if (call.isTimedOut || error instanceof sdk.APIConnectionTimeoutError) {
      throw new OyError(
        `listing models at ${where}: no answer within ${timeoutMs} ms`,
        EXIT.runtime,
        {
          hint: `is the server at ${where} running?`,
        },
      );
    }
    if (error instanceof sdk.APIConnectionError) {
      throw new OyError(`listing models at ${where}: nothing answered`, EXIT.runtime, {
        hint: `is the server at ${where} running?`,
      });
    }
    if (error instanceof sdk.APIError && error.status !== undefined) {
      const isAuth = error.status === 401 || error.status === 403;
      throw new OyError(
        `listing models at ${where} failed with HTTP ${error.status}`,
        EXIT.runtime,
        {
          ...(isAuth ? { hint: "check the endpoint's API key" } : {}),
          cause: { status: error.status },
        },
      );
    }
    throw new OyError(`listing models at ${where}: the answer was not a model list`, EXIT.runtime);
  } finally {
    call.dispose();
  }
}
