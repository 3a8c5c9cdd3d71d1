import type { ScriptedStopReason } from './stop-reasons.js';
import type { StreamGate } from './stream-gate.js';

/** What a fake provider answers, one entry per model call, in order. Protocol-neutral: each protocol renders it. */

export interface ScriptedToolCall {
  /** Defaults to a deterministic id in the protocol's own style. */
  id?: string;
  name: string;
  arguments: unknown;
  /** The arguments as JSON text, sent as they are (streams of all three): invalid JSON, or input too deep to stringify. */
  argumentsJson?: string;
}

export interface ScriptedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** A thinking block the fake signs (Anthropic `thinking`, Bedrock `reasoningContent`, OpenAI-compatible `reasoning_content`). */
export type ScriptedThinking = { text: string } | { redacted: true };

/** How an OpenAI-compatible server departs from OpenAI's own stream. */
export interface OpenAiStreamVariant {
  /** End the stream without `data: [DONE]`. */
  noDone?: boolean;
  /** Send each tool call whole in one chunk, without an index. */
  wholeToolCalls?: boolean;
  /** Send no usage, even when asked. */
  noUsage?: boolean;
  /** Say `finish_reason: "stop"` even though the answer calls tools. */
  stopWithToolCalls?: boolean;
}

/** A normal answer: text (streamed in `textChunks` when given), tool calls, usage, stop reason. */
export interface ScriptedAnswer {
  kind: 'answer';
  /** Thinking before the text and tool calls; the fake signs each block and checks it comes back unchanged. */
  thinking?: ScriptedThinking[];
  /** OpenAI-compatible servers' stream variants. */
  openai?: OpenAiStreamVariant;
  /** Anthropic-compatible gateways: `data:` lines without `event:` lines. */
  dataOnly?: boolean;
  /** Streaming only: after this many events, an in-stream error (Anthropic `event: error`, a Bedrock exception frame, an OpenAI error chunk). */
  streamErrorAfterEvents?: number;
  /** The in-stream error's type (Anthropic `overloaded_error`, Bedrock `throttlingException`, OpenAI `server_error`…). */
  streamErrorType?: string;
  text?: string;
  /** How the text is split into stream deltas; defaults to a few pieces of `text`. */
  textChunks?: string[];
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /**
   * Defaults to `tool_use` when there are tool calls, else `end_turn`. A reason the protocol's service
   * never sends (Bedrock `refusal`, Anthropic `content_filter`) fails the call (`stop-reasons.ts`).
   */
  stopReason?: ScriptedStopReason;
  /** Wait this long before answering (headers included). */
  latencyMs?: number;
  /** Wait this long between stream events. */
  eventDelayMs?: number;
  /** Streaming only, in-process only: each wire event waits for the test's permit (`stream-gate.ts`). */
  gate?: StreamGate;
  /** Streaming only: close the connection after this many wire events, mid-answer. */
  cutAfterEvents?: number;
  /** Streaming only: send an event that is not valid for the protocol after this many events. */
  malformedAfterEvents?: number;
  /** Anthropic Message Batches: this request ends `expired` or `canceled` instead of with the answer. */
  batchResult?: 'expired' | 'canceled';
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
  /** Anthropic and OpenAI: the `retry-after-ms` header. */
  retryAfterMs?: string;
  /** A body that is not the API's error JSON, as a gateway or proxy sends (`{"detail":"Not Found"}`). */
  rawBody?: string;
  /** Anthropic and OpenAI: the `x-should-retry` header (`"true"` or `"false"`). */
  shouldRetry?: string;
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
  /** A tool call after some thinking, as a thinking model answers in a tool loop. */
  thinkingToolCall: (thinking: string, name: string, args: unknown): ScriptedAnswer => ({
    kind: 'answer',
    thinking: [{ text: thinking }],
    toolCalls: [{ name, arguments: args }],
  }),
  thinkingText: (thinking: string, text: string): ScriptedAnswer => ({
    kind: 'answer',
    thinking: [{ text: thinking }],
    text,
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
