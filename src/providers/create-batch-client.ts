import type { BatchClient } from './batch/batch-client.js';
import { refuseBatchWithout } from './batch/batch-support.js';
import type { ProviderEnvironment } from './provider-environment.js';
import { resolveProviderSettings } from './resolve-provider-settings.js';
import type { ModelRef } from './types.js';

/** A batch client for a model id (`--batch`); a provider without a batch API is a usage error. */
export async function createBatchClient(
  ref: ModelRef,
  env: ProviderEnvironment,
): Promise<BatchClient> {
  refuseBatchWithout(ref);
  const resolved = resolveProviderSettings(ref, env);
  if (resolved.client !== 'anthropic') throw new Error(`no batch client for ${ref.id}`);
  const { createAnthropicBatchClient } =
    await import('./anthropic/create-anthropic-batch-client.js');
  return createAnthropicBatchClient(ref, resolved.settings);
}
