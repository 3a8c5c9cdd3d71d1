import type { ScriptedAnswer, ScriptedUsage } from './script.js';
import { wireStopReason } from './stop-reasons.js';
import type { ThinkingLedger } from './thinking-ledger.js';

/** One Server-Sent Event of the Messages API: the event name repeats the JSON's `type`. */
export interface AnthropicWireEvent {
  event: string;
  data: Record<string, unknown>;
}

/** How many stream deltas a text or a tool's JSON is split into when the script does not say. */
const DEFAULT_PIECES = 3;
/** Plausible counts for an answer whose script gives none (the real API never reports zero output). */
const DEFAULT_INPUT_TOKENS = 10;
const DEFAULT_OUTPUT_TOKENS = 5;

interface ResolvedToolCall {
  id: string;
  name: string;
  input: unknown;
  inputJson?: string;
}

/** The message id and tool ids the fake hands out: deterministic per call, in the API's own style. */
export function messageId(callNumber: number): string {
  return `msg_fake_${callNumber}`;
}

export function toolUseId(callNumber: number, index: number): string {
  return `toolu_fake_${callNumber}_${index}`;
}

/** A complete `POST /v1/messages` JSON answer. */
export function renderMessage(
  answer: ScriptedAnswer,
  model: string,
  callNumber: number,
  ledger?: ThinkingLedger,
): Record<string, unknown> {
  const text = answerText(answer);
  const content: Record<string, unknown>[] = thinkingBlocks(answer, callNumber, ledger);
  if (text !== '') content.push({ type: 'text', text, citations: null });
  for (const call of resolveToolCalls(answer, callNumber))
    content.push(toolUseBlock(call, call.input));
  return {
    ...messageShell(model, callNumber),
    content,
    stop_reason: stopReason(answer),
    stop_sequence: null,
    stop_details: null,
    usage: renderUsage(answer.usage, outputTokens(answer.usage)),
  };
}

/** The streamed form of the same answer, in the exact event order the API sends. */
export function renderStreamEvents(
  answer: ScriptedAnswer,
  model: string,
  callNumber: number,
  ledger?: ThinkingLedger,
): AnthropicWireEvent[] {
  const events: AnthropicWireEvent[] = [];
  const push = (data: Record<string, unknown>) => events.push({ event: String(data.type), data });
  // message_start carries the input side of usage; output so far is one token, as the real API reports.
  push({
    type: 'message_start',
    message: {
      ...messageShell(model, callNumber),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      usage: renderUsage(answer.usage, 1),
    },
  });
  let index = 0;
  for (const block of thinkingBlocks(answer, callNumber, ledger)) {
    if (block.type === 'redacted_thinking') {
      push({ type: 'content_block_start', index, content_block: block });
    } else {
      // Thinking opens empty, streams its text, then its signature just before it stops.
      push({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      for (const piece of splitEvenly(String(block.thinking), DEFAULT_PIECES))
        push({
          type: 'content_block_delta',
          index,
          delta: { type: 'thinking_delta', thinking: piece },
        });
      push({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: block.signature },
      });
    }
    push({ type: 'content_block_stop', index });
    index += 1;
  }
  const chunks = textChunks(answer);
  if (chunks.length > 0) {
    push({
      type: 'content_block_start',
      index,
      content_block: { type: 'text', text: '', citations: null },
    });
    push({ type: 'ping' });
    for (const chunk of chunks) {
      push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } });
    }
    push({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const call of resolveToolCalls(answer, callNumber)) {
    push({ type: 'content_block_start', index, content_block: toolUseBlock(call, {}) });
    // The real API opens every tool block with an empty piece.
    for (const piece of [
      '',
      ...splitEvenly(call.inputJson ?? JSON.stringify(call.input), DEFAULT_PIECES),
    ]) {
      push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: piece },
      });
    }
    push({ type: 'content_block_stop', index });
    index += 1;
  }
  push({
    type: 'message_delta',
    delta: {
      stop_reason: stopReason(answer),
      stop_sequence: null,
      stop_details: null,
      container: null,
    },
    usage: { output_tokens: outputTokens(answer.usage) },
  });
  push({ type: 'message_stop' });
  return events;
}

/** The answer's thinking, signed by the ledger, which also remembers the tool calls it preceded. */
function thinkingBlocks(
  answer: ScriptedAnswer,
  callNumber: number,
  ledger: ThinkingLedger | undefined,
): Record<string, unknown>[] {
  const scripted = answer.thinking ?? [];
  if (scripted.length === 0 || !ledger) return [];
  ledger.recordToolCalls(
    resolveToolCalls(answer, callNumber).map((call) => call.id),
    scripted.length,
  );
  return scripted.map((block) =>
    'redacted' in block
      ? { type: 'redacted_thinking', data: ledger.issueRedacted() }
      : { type: 'thinking', thinking: block.text, signature: ledger.sign(block.text) },
  );
}

function toolUseBlock(call: ResolvedToolCall, input: unknown): Record<string, unknown> {
  return { type: 'tool_use', id: call.id, name: call.name, input, caller: { type: 'direct' } };
}

function messageShell(model: string, callNumber: number): Record<string, unknown> {
  return { id: messageId(callNumber), type: 'message', role: 'assistant', model, container: null };
}

function answerText(answer: ScriptedAnswer): string {
  return answer.text ?? answer.textChunks?.join('') ?? '';
}

function textChunks(answer: ScriptedAnswer): string[] {
  if (answer.textChunks) return answer.textChunks;
  const text = answerText(answer);
  return text === '' ? [] : splitEvenly(text, DEFAULT_PIECES);
}

function resolveToolCalls(answer: ScriptedAnswer, callNumber: number): ResolvedToolCall[] {
  return (answer.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? toolUseId(callNumber, index),
    name: call.name,
    input: call.arguments,
    ...(call.argumentsJson === undefined ? {} : { inputJson: call.argumentsJson }),
  }));
}

function stopReason(answer: ScriptedAnswer): string {
  return wireStopReason('anthropic', answer);
}

function outputTokens(usage: ScriptedUsage | undefined): number {
  return usage?.outputTokens ?? DEFAULT_OUTPUT_TOKENS;
}

function renderUsage(usage: ScriptedUsage | undefined, output: number): Record<string, unknown> {
  return {
    input_tokens: usage?.inputTokens ?? DEFAULT_INPUT_TOKENS,
    cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0,
    cache_read_input_tokens: usage?.cacheReadTokens ?? 0,
    output_tokens: output,
  };
}

/** Splits text into at most `pieces` non-empty parts that join back to it. */
function splitEvenly(text: string, pieces: number): string[] {
  if (text === '') return [];
  const size = Math.ceil(text.length / pieces);
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size)
    parts.push(text.slice(start, start + size));
  return parts;
}
