import { BEDROCK_PROFILE_PREFIX } from '../model-id/model-id-prefixes.js';
import { normalizeModelName, priceFor } from '../pricing/price-for.js';
import type { ModelRef } from '../types.js';
import { BATCH_SUPPORT } from '../batch/batch-support.js';
import { KNOWN_MODELS } from './known-models.js';
import type { ModelFacts, ModelFactsOverride } from './model-facts.js';

/** Every hosted frontier model of 2025 has at least this; an unknown one is assumed to have no more. */
export const DEFAULT_HOSTED_CONTEXT_TOKENS = 128_000;
/** Local servers run with whatever window they were started with, often small: assume little. */
export const DEFAULT_LOCAL_CONTEXT_TOKENS = 32_768;
/** An unknown model's output limit is its server's business: oy does not clamp below this. */
const UNKNOWN_MAX_OUTPUT_TOKENS = 128_000;
/** Tokens per tiktoken token when the tokenizer is unknown: Claude's ratio, the largest oy knows. */
export const UNKNOWN_TOKEN_HEADROOM = 1.3;
/** OpenAI-compatible servers (local, Ollama, OpenRouter) run models near tiktoken's count, as oy has assumed. */
const OPENAI_COMPATIBLE_TOKEN_HEADROOM = 1.0;

const UNKNOWN: Omit<
  ModelFacts,
  'price' | 'batchPriceRatio' | 'isLocal' | 'contextWindow' | 'tokenHeadroom'
> = {
  maxOutputTokens: UNKNOWN_MAX_OUTPUT_TOKENS,
  promptCache: false,
  minCacheableTokens: 0,
  toolCache: false,
  thinking: 'none',
  streamingToolUse: true,
  toolResultStatus: false,
  inferenceProfileRequired: false,
};

/**
 * The one place model facts come from: the built-in table (matched anywhere in the lower-cased name, so
 * `us.anthropic.claude-…` and `anthropic/claude-…` match), the price table, and what the config says.
 */
export function modelFactsFor(ref: ModelRef, override: ModelFactsOverride = {}): ModelFacts {
  const isLocal = ref.provider === 'local' || ref.provider === 'ollama';
  const name = normalizeModelName(ref);
  const known = KNOWN_MODELS.find((entry) => entry.pattern.test(name));
  const tokenHeadroom =
    ref.provider === 'anthropic' || ref.provider === 'bedrock'
      ? UNKNOWN_TOKEN_HEADROOM
      : OPENAI_COMPATIBLE_TOKEN_HEADROOM;
  const batch = BATCH_SUPPORT[ref.provider];
  const batchPriceRatio = 'priceRatio' in batch ? batch.priceRatio : null;
  const base: ModelFacts = known
    ? {
        tokenHeadroom,
        ...known.facts,
        ...(ref.provider === 'bedrock' ? known.bedrock : {}),
        price: priceFor(ref),
        batchPriceRatio,
        isLocal,
      }
    : {
        ...UNKNOWN,
        contextWindow: isLocal ? DEFAULT_LOCAL_CONTEXT_TOKENS : DEFAULT_HOSTED_CONTEXT_TOKENS,
        price: priceFor(ref),
        batchPriceRatio,
        isLocal,
        tokenHeadroom,
      };
  // Only Anthropic's API and Bedrock take cache breakpoints or Claude's thinking field.
  if (ref.provider !== 'anthropic' && ref.provider !== 'bedrock') {
    base.promptCache = false;
    base.toolCache = false;
    if (base.thinking !== 'always') base.thinking = 'none';
  }
  if (ref.provider !== 'bedrock') base.inferenceProfileRequired = false;
  return { ...base, ...definedOnly({ ...(ref.facts ?? {}), ...override }) };
}

function definedOnly(override: ModelFactsOverride): ModelFactsOverride {
  return Object.fromEntries(
    Object.entries(override).filter(([, value]) => value !== undefined),
  ) as ModelFactsOverride;
}

/** Whether this Bedrock id is a bare on-demand id of a model that only runs through an inference profile. */
export function needsInferenceProfile(ref: ModelRef): boolean {
  const model = ref.model.toLowerCase();
  return (
    ref.provider === 'bedrock' &&
    !BEDROCK_PROFILE_PREFIX.test(model) &&
    !model.startsWith('arn:') &&
    modelFactsFor(ref).inferenceProfileRequired
  );
}

/** The geographies oy lists inference profiles for when a bare id has no on-demand throughput. */
const PROFILE_GEOGRAPHIES = ['us', 'eu', 'apac'] as const;

/** Ids to invoke this Bedrock model with: itself, or its inference profiles when the bare id cannot run on demand. */
export function invokableBedrockIds(ref: ModelRef): string[] {
  if (!needsInferenceProfile(ref)) return [ref.id];
  return PROFILE_GEOGRAPHIES.map((geography) => `bedrock::${geography}.${ref.model}`);
}
