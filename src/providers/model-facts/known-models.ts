import type { ModelFacts } from './model-facts.js';

/** A family of models: a pattern over the normalised name, its facts, and Bedrock's differences. */
export interface KnownModel {
  pattern: RegExp;
  /** `tokenHeadroom` where the family's tokenizer is known; else the provider's default (modelFactsFor). */
  facts: Omit<ModelFacts, 'price' | 'batchPriceRatio' | 'isLocal' | 'tokenHeadroom'> & {
    tokenHeadroom?: number;
  };
  /** Where Bedrock serves the family differently (Claude 3 and 3.5 Sonnet have no prompt caching there). */
  bedrock?: Partial<ModelFacts>;
}

const K = 1_000;
/** Claude's tokenizer counts about 30% more tokens than tiktoken's o200k for the same code (README.md "oy audit"). */
const CLAUDE_TOKEN_HEADROOM = 1.3;
/** OpenAI's models count with tiktoken itself. */
const OPENAI_TOKEN_HEADROOM = 1.0;
const claude = (
  thinking: ModelFacts['thinking'],
  maxOutputTokens: number,
  minCacheableTokens: number,
  inferenceProfileRequired = true,
): KnownModel['facts'] => ({
  contextWindow: 200 * K,
  maxOutputTokens,
  promptCache: true,
  minCacheableTokens,
  toolCache: true,
  thinking,
  streamingToolUse: true,
  toolResultStatus: true,
  inferenceProfileRequired,
  tokenHeadroom: CLAUDE_TOKEN_HEADROOM,
});
const hosted = (
  contextWindow: number,
  maxOutputTokens: number,
  thinking: ModelFacts['thinking'] = 'none',
): KnownModel['facts'] => ({
  contextWindow,
  maxOutputTokens,
  promptCache: false,
  minCacheableTokens: 0,
  toolCache: false,
  thinking,
  streamingToolUse: true,
  toolResultStatus: false,
  inferenceProfileRequired: false,
});
/** OpenAI's own families: tiktoken is their tokenizer. */
const openAi = (
  contextWindow: number,
  maxOutputTokens: number,
  thinking: ModelFacts['thinking'] = 'none',
): KnownModel['facts'] => ({
  ...hosted(contextWindow, maxOutputTokens, thinking),
  tokenHeadroom: OPENAI_TOKEN_HEADROOM,
});
/** Bedrock's prompt caching covers Claude 3.5 Haiku, 3.7 Sonnet and later, not the older Claude 3 models. */
const NO_BEDROCK_CACHE: Partial<ModelFacts> = {
  promptCache: false,
  minCacheableTokens: 0,
  toolCache: false,
};
/** Open-weight families on Bedrock: no caching, no status field, no tool use inside ConverseStream. */
const openWeight = (maxOutputTokens: number, inferenceProfileRequired: boolean) => ({
  ...hosted(32_768, maxOutputTokens),
  streamingToolUse: false,
  inferenceProfileRequired,
});

/**
 * First match wins. Sources (read 2026-11): Anthropic's models overview, extended and adaptive thinking and
 * prompt-caching pages (minimum cacheable prompt per model); Bedrock's "supported models and model features"
 * and the SDK's `ToolResultBlock.status` note (Nova and Claude only); OpenAI's model pages. Claude's 1M-token
 * beta needs a header oy does not send, so Claude is 200k.
 */
export const KNOWN_MODELS: readonly KnownModel[] = [
  { pattern: /claude-mythos-preview/, facts: claude('always', 128 * K, 4096) },
  { pattern: /claude-(?:fable|mythos)-5/, facts: claude('adaptive', 128 * K, 4096) },
  { pattern: /claude-haiku-5/, facts: claude('adaptive', 64 * K, 4096) },
  { pattern: /claude-(?:opus|sonnet)-5/, facts: claude('adaptive', 128 * K, 4096) },
  { pattern: /claude-opus-4-[678]/, facts: claude('adaptive', 128 * K, 4096) },
  { pattern: /claude-sonnet-4-6/, facts: claude('adaptive', 64 * K, 2048) },
  { pattern: /claude-(?:opus|haiku)-4-5/, facts: claude('budgeted', 64 * K, 4096) },
  { pattern: /claude-sonnet-4/, facts: claude('budgeted', 64 * K, 1024) },
  { pattern: /claude-opus-4/, facts: claude('budgeted', 32 * K, 1024) },
  { pattern: /claude-3-7-sonnet/, facts: claude('budgeted', 64 * K, 1024) },
  { pattern: /claude-3-5-haiku/, facts: claude('none', 8192, 2048) },
  {
    pattern: /claude-3-5-sonnet/,
    facts: claude('none', 8192, 1024, false),
    bedrock: NO_BEDROCK_CACHE,
  },
  {
    pattern: /claude-3-haiku/,
    facts: claude('none', 4096, 2048, false),
    bedrock: NO_BEDROCK_CACHE,
  },
  { pattern: /claude-3-opus/, facts: claude('none', 4096, 1024, false), bedrock: NO_BEDROCK_CACHE },
  // An unknown, presumably newer Claude: the common ground of the current ones.
  { pattern: /claude/, facts: claude('none', 32 * K, 4096) },
  { pattern: /gpt-4\.1/, facts: openAi(1_047_576, 32_768) },
  { pattern: /gpt-5(?:\.\d+)?-chat/, facts: openAi(128 * K, 16_384) },
  { pattern: /gpt-5/, facts: openAi(400 * K, 128 * K, 'always') },
  { pattern: /gpt-4o/, facts: openAi(128 * K, 16_384) },
  { pattern: /gpt-4-turbo/, facts: openAi(128 * K, 4096) },
  { pattern: /gpt-oss/, facts: openAi(131_072, 32_768) },
  { pattern: /(?:^|\/)o1-(?:mini|preview)/, facts: openAi(128 * K, 32_768, 'always') },
  { pattern: /(?:^|\/)o[134](?:-|$)/, facts: openAi(200 * K, 100 * K, 'always') },
  {
    pattern: /nova-premier/,
    facts: {
      ...hosted(1_000 * K, 32 * K),
      promptCache: true,
      minCacheableTokens: 1 * K,
      toolResultStatus: true,
      inferenceProfileRequired: true,
    },
  },
  {
    pattern: /nova-(?:pro|lite|micro)/,
    facts: {
      ...hosted(300 * K, 10 * K),
      promptCache: true,
      minCacheableTokens: 1 * K,
      toolResultStatus: true,
    },
  },
  { pattern: /gemini/, facts: hosted(1_000 * K, 65_536) },
  { pattern: /llama3-[23]|llama4/, facts: openWeight(8192, true) },
  { pattern: /llama|mistral|mixtral|codestral|cohere|command-r/, facts: openWeight(8192, false) },
  {
    pattern: /qwen|gemma|phi|deepseek/,
    facts: { ...openWeight(8192, false), contextWindow: 32_768 },
  },
];
