import type { Price } from '../pricing/price-table.js';

/**
 * How a model thinks: `none` (no extended thinking), `budgeted` (`thinking: {type: "enabled", budget_tokens}`),
 * `adaptive` (`thinking: {type: "adaptive"}`; the budget form is rejected), `always` (reasons on every call and
 * cannot be turned off: OpenAI reasoning models, Claude Mythos Preview).
 */
export type ThinkingKind = 'none' | 'budgeted' | 'adaptive' | 'always';

/** What oy needs to know about a model to build requests its service accepts. */
export interface ModelFacts {
  /** Input plus output, in tokens. */
  contextWindow: number;
  /** The largest `max_tokens` the service accepts (thinking included). */
  maxOutputTokens: number;
  /** USD per million tokens; undefined when unknown (tokens are shown without a cost). */
  price: Price | undefined;
  /** The share of `price` a batch request costs (`--batch`), or null where the provider has no batch API (BATCH_SUPPORT). */
  batchPriceRatio: number | null;
  /** Cache breakpoints (Anthropic `cache_control`, Bedrock `cachePoint`) are accepted. */
  promptCache: boolean;
  /** A cached prefix shorter than this is not cached (the breakpoint is accepted but does nothing). */
  minCacheableTokens: number;
  /** Bedrock: a cache point after the tool definitions (Claude only). */
  toolCache: boolean;
  thinking: ThinkingKind;
  /** Bedrock: tool use inside ConverseStream; without it a tool loop uses Converse. */
  streamingToolUse: boolean;
  /** Bedrock: `toolResult.status` is accepted (Claude and Nova). */
  toolResultStatus: boolean;
  /** Bedrock: the bare model id has no on-demand throughput; a `us.`/`eu.`/`apac.`/`global.` profile id is needed. */
  inferenceProfileRequired: boolean;
  /** Served on this machine (`local-<port>::`, `ollama::`). */
  isLocal: boolean;
  /** The model's tokens per tiktoken token: how far the audit's local count may undershoot (1.0 for OpenAI's own). */
  tokenHeadroom: number;
}

/** What a config file may say about a model the table lacks (or gets wrong): any fact, over the table's. */
export type ModelFactsOverride = Partial<ModelFacts>;
