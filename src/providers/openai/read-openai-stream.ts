import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { ProviderError } from '../provider-error.js';
import {
  EMPTY_USAGE,
  type ModelRef,
  type StreamEvent,
  type ToolCall,
  type Usage,
} from '../types.js';
import { parseToolArguments } from '../bound-tool-arguments.js';
import { toOpenAiStopReason, type FinishReason } from './to-openai-stop-reason.js';

interface PartialToolCall {
  index: number;
  id: string;
  name: string;
  argumentsJson: string;
}

/**
 * Normalises chat-completion chunks: text deltas as they come, tool calls assembled by index and emitted
 * whole when the finish reason arrives, then one usage event and the stop. A stream that ends without a
 * finish reason was cut short: a retryable `connection` error, never a silently partial answer.
 */
export async function* readOpenAiStream(
  ref: ModelRef,
  chunks: AsyncIterable<ChatCompletionChunk>,
): AsyncGenerator<StreamEvent> {
  const partials = new Map<number, PartialToolCall>();
  let finishReason: FinishReason | undefined;
  let usage: CompletionUsage | undefined;
  let sawRefusal = false;
  let toolCallCount = 0;
  let reasoning = '';

  for await (const chunk of chunks) {
    // Some servers send usage beside the finish reason, others in a trailing chunk with no choices.
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    // DeepSeek, vLLM and llama.cpp send thinking as `reasoning_content` (some as `reasoning`).
    const reasoningDelta = readReasoning(delta);
    if (reasoningDelta !== '') {
      reasoning += reasoningDelta;
      yield { type: 'thinking_delta', text: reasoningDelta };
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      yield { type: 'text_delta', text: delta.content };
    }
    // A refusal is the model's answer too: show it as text.
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      sawRefusal = true;
      yield { type: 'text_delta', text: delta.refusal };
    }
    for (const [position, fragment] of (delta.tool_calls ?? []).entries()) {
      // Some compatible servers omit the index when each chunk carries one whole call.
      const index = fragment.index ?? position;
      const partial = partials.get(index) ?? { index, id: '', name: '', argumentsJson: '' };
      partials.set(index, partial);
      if (fragment.id) partial.id ||= fragment.id;
      // Some servers repeat the name in every fragment: keep the first, never concatenate.
      if (fragment.function?.name) partial.name ||= fragment.function.name;
      if (fragment.function?.arguments) partial.argumentsJson += fragment.function.arguments;
    }
    if (choice.finish_reason && finishReason === undefined) {
      finishReason = choice.finish_reason;
      for (const call of drainToolCalls(partials)) {
        toolCallCount += 1;
        yield { type: 'tool_call', call };
      }
    }
  }

  if (finishReason === undefined) {
    throw new ProviderError(
      'connection',
      ref,
      'the answer stream ended before the model finished',
      {
        hint: 'the connection broke mid-answer; try again',
      },
    );
  }
  // Fragments after the finish reason, from a server that sends them late.
  for (const call of drainToolCalls(partials)) {
    toolCallCount += 1;
    yield { type: 'tool_call', call };
  }
  // Unsigned: kept in the transcript and shown, never sent back (chat completions has no field for it).
  if (reasoning !== '')
    yield { type: 'thinking', part: { type: 'thinking', source: 'openai', text: reasoning } };
  yield { type: 'usage', usage: toUsage(usage) };
  yield { type: 'stop', reason: toOpenAiStopReason(finishReason, toolCallCount > 0, sawRefusal) };
}

function readReasoning(delta: object): string {
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof fields.reasoning_content === 'string') return fields.reasoning_content;
  return typeof fields.reasoning === 'string' ? fields.reasoning : '';
}

function drainToolCalls(partials: Map<number, PartialToolCall>): ToolCall[] {
  const calls = [...partials.values()]
    .sort((left, right) => left.index - right.index)
    .map((partial) => ({
      id: partial.id || `call_${partial.index}`,
      name: partial.name,
      // `''` (no parameters) is `{}`; invalid JSON goes on as the raw string, for the loop to refuse.
      arguments: parseToolArguments(partial.argumentsJson),
    }));
  partials.clear();
  return calls;
}

/** OpenAI counts cached tokens inside prompt tokens; ours, like Anthropic's and Bedrock's, are uncached input only. */
function toUsage(usage: CompletionUsage | undefined): Usage {
  if (!usage) return { ...EMPTY_USAGE };
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max((usage.prompt_tokens ?? 0) - cached, 0),
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
