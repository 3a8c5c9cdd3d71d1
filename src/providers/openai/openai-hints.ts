import { displayUrl } from '../display-url.js';
import type { ModelRef, ProviderName } from '../types.js';

/** The variable that holds each provider's key (Ollama needs none). */
const KEY_VARIABLES: Partial<Record<ProviderName, string>> = {
  openai: 'OPENAI_API_KEY',
  local: 'LOCAL_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
};

/** What to check when the endpoint rejects the credentials. */
export function credentialHint(ref: ModelRef): string {
  const variable = KEY_VARIABLES[ref.provider];
  return variable ? `check ${variable}, then run oy doctor --online` : 'run oy doctor --online';
}

/** The account is out of credit: a retry will not help. */
export function quotaHint(ref: ModelRef): string {
  const variable = KEY_VARIABLES[ref.provider] ?? 'the API key';
  return `the account behind ${variable} has no quota left: check its plan and billing details`;
}

/** What to check when nothing answered at the base URL. */
export function connectionHint(ref: ModelRef, baseURL: string): string {
  const where = displayUrl(baseURL);
  if (ref.provider === 'local' || ref.provider === 'ollama') {
    return `is the server at ${where} running?`;
  }
  return `check the network connection to ${where}, or run oy doctor --online`;
}
