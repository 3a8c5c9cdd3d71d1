import { UsageError } from '../../shared/errors.js';
import type { ModelRef, ProviderName } from '../types.js';

/** What `--batch` can do on each provider: the share of the online price a batch call costs, or why there is none. */
export type BatchSupport = { priceRatio: number } | { why: string };

/**
 * One row per provider, so a new provider must be judged here before oy compiles. Anthropic bills every
 * token of a Message Batches request (input, output, cache writes and reads) at half the online price
 * (platform.claude.com, "Batch processing", pricing).
 */
export const BATCH_SUPPORT: Readonly<Record<ProviderName, BatchSupport>> = {
  anthropic: { priceRatio: 0.5 },
  bedrock: {
    why: 'Bedrock batch inference needs S3 buckets for input and output, an IAM service role and a minimum number of records per job, which most audits do not reach',
  },
  openai: { why: "oy does not use OpenAI's Batch API yet" },
  local: { why: 'an OpenAI-compatible server has no batch API' },
  ollama: { why: 'Ollama has no batch API' },
  openrouter: { why: 'OpenRouter has no batch API' },
};

/** The providers `--batch` works with, for messages. */
export function listBatchProviders(): ProviderName[] {
  return (Object.keys(BATCH_SUPPORT) as ProviderName[]).filter(
    (provider) => 'priceRatio' in BATCH_SUPPORT[provider],
  );
}

/** `--batch` on a provider without a batch API is a usage error naming the ones that have it. */
export function refuseBatchWithout(ref: ModelRef): void {
  const support = BATCH_SUPPORT[ref.provider];
  if ('priceRatio' in support) return;
  const providers = listBatchProviders();
  throw new UsageError(
    `--batch is not supported for ${ref.id}: ${support.why}; it works with ${providers.map((name) => `${name}::`).join(', ')} models`,
    {
      hint: `drop --batch to review online, or use a model such as ${providers[0]}::claude-sonnet-4-5 with --batch`,
    },
  );
}
