import type OpenAI from 'openai';
import type { OpenAiSettings } from '../provider-settings.js';

export type OpenAiSdk = typeof import('openai');

/** The SDK refuses an empty key; Ollama and many local servers need none, so any placeholder does. */
const NO_KEY_PLACEHOLDER = 'oy-no-key';

/** Loads the SDK on first use, so importing a provider module stays cheap. */
export async function loadOpenAiSdk(): Promise<OpenAiSdk> {
  return import('openai');
}

/**
 * An SDK client that never retries (the shared retry wrapper does), never logs (core code does not print),
 * and takes nothing from the environment that the settings do not say (no organisation or project header).
 * One setting we cannot turn off: the SDK still reads `OPENAI_CUSTOM_HEADERS` itself.
 */
export function newOpenAiClient(
  sdk: OpenAiSdk,
  settings: OpenAiSettings,
  timeoutMs: number,
): OpenAI {
  return new sdk.OpenAI({
    apiKey: settings.apiKey === '' ? NO_KEY_PLACEHOLDER : settings.apiKey,
    baseURL: settings.baseURL,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
  });
}
