/**
 * What each service knows about its models, written from the services' own pages, apart from oy's model-facts
 * table: the fakes judge requests by this, so a wrong fact in oy's table makes a request the fake refuses
 * instead of one it agrees with. Sources: Anthropic's models overview, thinking and prefill notes and error
 * reference (SDK 1.12 types); Bedrock's "supported models and model features", prompt caching and inference
 * profile pages; OpenAI's reasoning guide; DeepSeek's thinking-mode guide (tool calls).
 */
export interface ServiceModel {
  /** The largest `max_tokens` accepted (thinking included). */
  maxOutputTokens: number;
  /** Which `thinking.type` values are accepted. */
  takesEnabled: boolean;
  takesAdaptive: boolean;
  takesDisabled: boolean;
  /** Thinks with no `thinking` field sent. */
  isThinkingByDefault: boolean;
  /** A request may end with an assistant turn (Claude 4.6 and later refuse it). */
  takesPrefill: boolean;
  /** Bedrock: `cachePoint` in system and messages / after the tools. */
  bedrockCache: boolean;
  bedrockToolCache: boolean;
  /** Bedrock: `toolResult.status`. */
  bedrockToolResultStatus: boolean;
  /** Bedrock: tools in ConverseStream. */
  bedrockStreamingTools: boolean;
  /** Bedrock: the bare id has no on-demand throughput. */
  bedrockProfileOnly: boolean;
  /** OpenAI reasoning model: `max_completion_tokens` only, default temperature only. */
  isOpenAiReasoning: boolean;
  /** OpenAI's own model: its schema has no `reasoning_content` on messages. */
  isOpenAiOwn: boolean;
  /** DeepSeek in thinking mode: a tool loop's assistant messages must carry their `reasoning_content` back. */
  requiresReasoningContent: boolean;
}

const K = 1_000;
const base: ServiceModel = {
  maxOutputTokens: 128 * K,
  takesEnabled: false,
  takesAdaptive: false,
  takesDisabled: true,
  isThinkingByDefault: false,
  takesPrefill: true,
  bedrockCache: false,
  bedrockToolCache: false,
  bedrockToolResultStatus: false,
  bedrockStreamingTools: true,
  bedrockProfileOnly: false,
  isOpenAiReasoning: false,
  isOpenAiOwn: false,
  requiresReasoningContent: false,
};
const claudeOnBedrock = {
  bedrockCache: true,
  bedrockToolCache: true,
  bedrockToolResultStatus: true,
  bedrockProfileOnly: true,
};
/** Claude 4.7 and later: adaptive only, thinking unless turned off, no prefill. */
const adaptiveOnly = (maxOutputTokens: number): Partial<ServiceModel> => ({
  ...claudeOnBedrock,
  maxOutputTokens,
  takesAdaptive: true,
  isThinkingByDefault: true,
  takesPrefill: false,
});
/** Claude 4.6: both thinking forms, no prefill. */
const eitherThinking = (maxOutputTokens: number): Partial<ServiceModel> => ({
  ...claudeOnBedrock,
  maxOutputTokens,
  takesEnabled: true,
  takesAdaptive: true,
  takesPrefill: false,
});
/** Claude 3.7 to 4.5: budgeted thinking only. */
const budgetedOnly = (maxOutputTokens: number): Partial<ServiceModel> => ({
  ...claudeOnBedrock,
  maxOutputTokens,
  takesEnabled: true,
});
/** Claude 3 and 3.5: no thinking; on Bedrock on-demand ids, and (3.5 Haiku apart) no prompt caching. */
const claude3 = (maxOutputTokens: number, bedrockCache: boolean): Partial<ServiceModel> => ({
  maxOutputTokens,
  bedrockCache,
  bedrockToolCache: bedrockCache,
  bedrockToolResultStatus: true,
});
const openWeightOnBedrock = { bedrockStreamingTools: false, maxOutputTokens: 8192 };

/** First match wins; a model none matches is judged leniently (the fake cannot know a made-up model). */
const SERVICE_MODELS: ReadonlyArray<[RegExp, Partial<ServiceModel>]> = [
  [/claude-mythos-preview/, { ...adaptiveOnly(128 * K), takesDisabled: false }],
  [/claude-(?:fable|mythos|opus|sonnet)-5/, adaptiveOnly(128 * K)],
  [/claude-haiku-5/, adaptiveOnly(64 * K)],
  [/claude-opus-4-[78]/, adaptiveOnly(128 * K)],
  [/claude-opus-4-6/, eitherThinking(128 * K)],
  [/claude-sonnet-4-6/, eitherThinking(64 * K)],
  [/claude-(?:opus|haiku)-4-5|claude-sonnet-4|claude-3-7-sonnet/, budgetedOnly(64 * K)],
  [/claude-opus-4/, budgetedOnly(32 * K)],
  [/claude-3-5-haiku/, { ...claude3(8192, true), bedrockProfileOnly: true }],
  [/claude-3-5-sonnet/, claude3(8192, false)],
  [/claude-3-(?:haiku|opus)/, claude3(4096, false)],
  [
    /(?:^|\/)(?:o[134](?:-|$)|gpt-5(?!(?:\.\d+)?-chat))/,
    { isOpenAiReasoning: true, isOpenAiOwn: true },
  ],
  [/gpt-4o|gpt-5(?:\.\d+)?-chat/, { maxOutputTokens: 16_384, isOpenAiOwn: true }],
  [/gpt-4\.1/, { maxOutputTokens: 32_768, isOpenAiOwn: true }],
  [/deepseek-(?:reasoner|v4|v3\.2)/, { requiresReasoningContent: true }],
  [
    /nova-(?:pro|lite|micro|premier)/,
    { maxOutputTokens: 10 * K, bedrockCache: true, bedrockToolResultStatus: true },
  ],
  [/llama3-[23]|llama4/, { ...openWeightOnBedrock, bedrockProfileOnly: true }],
  [/llama|mistral|mixtral|cohere|command-r/, openWeightOnBedrock],
];

/** Nova Premier writes up to 32k tokens; the other Nova models 10k. */
const NOVA_PREMIER = /nova-premier/;

/** A bare model name: a Bedrock id loses its region prefix, `anthropic.` and version suffix. */
export function serviceModelFor(model: string): ServiceModel {
  const name = model
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/^(?:us|us-gov|eu|apac|au|jp|ca|global)\./, '')
    .replace(/^anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '');
  const entry = SERVICE_MODELS.find(([pattern]) => pattern.test(name))?.[1];
  if (entry === undefined)
    return {
      ...base,
      takesEnabled: true,
      takesAdaptive: true,
      bedrockCache: true,
      bedrockToolCache: true,
      bedrockToolResultStatus: true,
    };
  const facts = { ...base, ...entry };
  if (NOVA_PREMIER.test(name)) facts.maxOutputTokens = 32 * K;
  return facts;
}

/** Whether a Bedrock model id names an inference profile (or an ARN) rather than a bare model. */
export function isProfileId(modelId: string): boolean {
  return /^(?:us|us-gov|eu|apac|au|jp|ca|global)\./.test(modelId) || modelId.startsWith('arn:');
}
