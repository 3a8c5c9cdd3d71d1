import type { ModelFactsOverride } from './model-facts/model-facts.js';

/** The narrow model interface every provider implements (README.md "Models and providers"). */

export type ProviderName = 'anthropic' | 'bedrock' | 'openai' | 'local' | 'ollama' | 'openrouter';

/** A resolved model id: `provider::model`. */
export interface ModelRef {
  provider: ProviderName;
  /** The provider's own model name, e.g. `claude-sonnet-4-5` or `gpt-4o`. */
  model: string;
  /** Canonical `provider::model` (for `local`, `local-<port>::model`). */
  id: string;
  /** For `local-<port>::`. */
  port?: number;
  /** What the config says about this model (`models` in the config file), over the built-in table. */
  facts?: ModelFactsOverride;
}

export interface ToolCall {
  /** The provider's id for the call, echoed back in the tool result. */
  id: string;
  name: string;
  /** Parsed JSON arguments; text that is not valid JSON arrives as that raw string. */
  arguments: unknown;
}

export interface ToolResult {
  toolCallId: string;
  /** Compact JSON or text the model reads. */
  content: string;
  isError?: boolean;
}

/** A document attached to a user message (Bedrock documents, Anthropic document blocks). */
export interface DocumentInput {
  name: string;
  format: 'txt' | 'md' | 'html' | 'csv' | 'pdf';
  /** UTF-8 text, or base64 for pdf. */
  data: string;
}

/** Which wire format a piece of thinking came from: its signature is only valid there. */
export type ThinkingSource = 'anthropic' | 'bedrock' | 'openai';

/**
 * Reasoning the model showed before answering. Anthropic and Bedrock sign it and require it back unchanged
 * in a tool-use loop; `redacted_thinking` is opaque (encrypted) and goes back as received.
 */
export type ThinkingPart =
  | { type: 'thinking'; source: ThinkingSource; text: string; signature?: string }
  | { type: 'redacted_thinking'; source: ThinkingSource; data: string };

export type Message =
  | { role: 'user'; text: string; documents?: DocumentInput[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[]; thinking?: ThinkingPart[] }
  | { role: 'tool'; results: ToolResult[] };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
}

/** Where to place prompt-cache breakpoints (Anthropic; ignored by providers without them). */
export interface CacheHints {
  system?: boolean;
  tools?: boolean;
  /** The latest message, so the next call re-reads the conversation prefix from cache. */
  lastMessage?: boolean;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools?: ToolDefinition[];
  maxTokens: number;
  temperature?: number;
  cache?: CacheHints;
  /**
   * Thinking wanted, in tokens, on top of `maxTokens` (which is the answer's share). Budgeted models get it
   * as `budget_tokens`; adaptive ones turn thinking on; others ignore it. See planOutputTokens.
   */
  reasoningBudgetTokens?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/**
 * Why the model ended one answer, each provider's stop reason in one vocabulary (see LoopStopReason for the
 * loop). Only `end_turn`, `stop_sequence` and, where tools were offered, `tool_use` end an answer normally.
 */
export type ModelStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'stop_sequence'
  /** The output limit (`max_tokens`) cut the answer. */
  | 'max_tokens'
  /** The context window filled up mid-answer (Anthropic's and Bedrock's `model_context_window_exceeded`). */
  | 'context_exceeded'
  /** The model declined (Anthropic `refusal`, an OpenAI `refusal` message). */
  | 'refusal'
  /** A filter or guardrail stopped it (Bedrock `guardrail_intervened`, `content_filtered`; OpenAI `content_filter`). */
  | 'content_filter'
  /** Anthropic paused a long turn (`pause_turn`): the answer goes on in another call. */
  | 'pause_turn'
  /** Bedrock's `malformed_model_output` and `malformed_tool_use`: the model's output did not parse. */
  | 'malformed'
  /** A reason this version of oy does not know. */
  | 'other';

/** Normalised stream events: the same sequence whatever the provider. */
export type StreamEvent =
  | { type: 'text_delta'; text: string }
  /** Thinking text as it streams, to show; the whole signed block follows as `thinking`. */
  | { type: 'thinking_delta'; text: string }
  | { type: 'thinking'; part: ThinkingPart }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'stop'; reason: ModelStopReason };

export interface ModelResult {
  text: string;
  toolCalls: ToolCall[];
  /** Thinking blocks in the order they came (empty when the model did not think). */
  thinking?: ThinkingPart[];
  usage: Usage;
  stopReason: ModelStopReason;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ModelClient {
  readonly ref: ModelRef;
  /** Streams normalised events; aborting the signal aborts the HTTP request at once. */
  stream(request: ModelRequest, options?: CallOptions): AsyncIterable<StreamEvent>;
  /** Gathers a whole answer (the audit uses it). */
  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResult>;
}

export const EMPTY_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};
