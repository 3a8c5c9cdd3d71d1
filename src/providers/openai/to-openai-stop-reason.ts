import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelStopReason } from '../types.js';

export type FinishReason = NonNullable<ChatCompletionChunk.Choice['finish_reason']>;

/** Every `finish_reason` chat completions documents; a record, so a new one in the SDK's type must be added here. */
const FINISH_REASONS: Readonly<Record<FinishReason, ModelStopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'content_filter',
};

/**
 * The finish reason in our terms, with what the answer held: a refusal comes as a `refusal` field with
 * finish reason `stop`, and Ollama and some llama.cpp builds say `stop` even when they called tools.
 */
export function toOpenAiStopReason(
  finishReason: string,
  hasToolCalls: boolean,
  sawRefusal: boolean,
): ModelStopReason {
  const reason = Object.hasOwn(FINISH_REASONS, finishReason)
    ? FINISH_REASONS[finishReason as FinishReason]
    : 'other';
  if (reason !== 'end_turn' && reason !== 'tool_use') return reason;
  if (hasToolCalls) return 'tool_use';
  return sawRefusal ? 'refusal' : reason;
}
