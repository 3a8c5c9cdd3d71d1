import type { ProviderEnvironment } from './provider-environment.js';
import { resolveProviderSettings } from './resolve-provider-settings.js';
import { withRetries, type RetryPolicy } from './retry/with-retries.js';
import type { ModelClient, ModelRef } from './types.js';

export interface CreateModelClientOptions {
  /** Per-request timeout; the provider's default when absent. */
  timeoutMs?: number;
  /** Backoff settings; `{ maxAttempts: 1 }` turns retries off (doctor --online wants one honest answer). */
  retry?: RetryPolicy;
}

/**
 * A ready client for a model id: settings from the environment passed in, the provider module imported
 * only now (so `oy --version` never loads an SDK), wrapped in retries.
 */
export async function createModelClient(
  ref: ModelRef,
  env: ProviderEnvironment,
  options: CreateModelClientOptions = {},
): Promise<ModelClient> {
  const resolved = resolveProviderSettings(
    ref,
    env,
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  let client: ModelClient;
  switch (resolved.client) {
    case 'anthropic': {
      const { createAnthropicClient } = await import('./anthropic/create-anthropic-client.js');
      client = createAnthropicClient(ref, resolved.settings);
      break;
    }
    case 'openai': {
      const { createOpenAiClient } = await import('./openai/create-openai-client.js');
      client = createOpenAiClient(ref, resolved.settings);
      break;
    }
    case 'bedrock': {
      const { createBedrockClient } = await import('./bedrock/create-bedrock-client.js');
      client = createBedrockClient(ref, resolved.settings);
      break;
    }
  }
  return withRetries(client, options.retry);
}
