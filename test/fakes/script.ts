/** What a fake provider answers, one entry per model call, in order. Protocol-neutral: each protocol renders it. */

export interface ScriptedToolCall {
  /** Defaults to a deterministic id in the protocol's own style. */
  id?: string;
  name: string;
  arguments: unknown;
  /** The arguments as JSON text, sent as they are (Anthropic and OpenAI streams): for hostile input too deep to stringify. */
  argumentsJson?: string;
}

export interface ScriptedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** A normal answer: text (streamed in `textChunks` when given), tool calls, usage, stop reason. */
export interface ScriptedAnswer {
  kind: 'answer';
  text?: string;
  /** How the text is split into stream deltas; defaults to a few pieces of `text`. */
  textChunks?: string[];
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Defaults to `tool_use` when there are tool calls, else `end_turn`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  /** Wait this long before answering (headers included). */
  latencyMs?: number;
  /** Wait this long between stream events. */
  eventDelayMs?: number;
  /** Streaming only: close the connection after this many wire events, mid-answer. */
  cutAfterEvents?: number;
  /** Streaming only: send an event that is not valid for the protocol after this many events. */
  malformedAfterEvents?: number;
}

/**
 * An HTTP error. `errorType` is the provider's own error type where it has one
 * (Anthropic `rate_limit_error`, OpenAI `insufficient_quota`, Bedrock `ThrottlingException`);
 * each protocol picks its usual one for the status when it is absent.
 */
export interface ScriptedError {
  kind: 'error';
  status: number;
  errorType?: string;
  message?: string;
  /** The Retry-After header value as sent: seconds (`"2"`) or an HTTP date. */
  retryAfter?: string;
  latencyMs?: number;
}

export type ScriptedReply = ScriptedAnswer | ScriptedError;

/** Convenience builders, so tests read like the conversation they script. */
export const reply = {
  text: (text: string, usage: ScriptedUsage = {}): ScriptedAnswer => ({
    kind: 'answer',
    text,
    usage,
  }),
  toolCall: (name: string, args: unknown, extra: Partial<ScriptedAnswer> = {}): ScriptedAnswer => ({
    kind: 'answer',
    toolCalls: [{ name, arguments: args }],
    ...extra,
  }),
  rateLimited: (retryAfter = '1'): ScriptedError => ({ kind: 'error', status: 429, retryAfter }),
  serverError: (): ScriptedError => ({ kind: 'error', status: 500 }),
  overloaded: (): ScriptedError => ({ kind: 'error', status: 529 }),
  error: (status: number, errorType?: string): ScriptedError => ({
    kind: 'error',
    status,
    ...(errorType ? { errorType } : {}),
  }),
};
