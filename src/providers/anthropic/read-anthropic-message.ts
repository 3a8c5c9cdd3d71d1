import { boundToolArguments } from '../bound-tool-arguments.js';
import { ProviderError } from '../provider-error.js';
import type { ModelRef, ModelResult, ToolCall, Usage } from '../types.js';
import { toAnthropicStopReason } from './to-anthropic-stop-reason.js';

/**
 * A whole Messages API answer (a batch's `succeeded` result) as the ModelResult a stream would have given:
 * the text blocks joined, tool calls, usage and stop reason. A message without content or usage is a
 * `server` error; thinking blocks are not kept (the audit offers no tools, so nothing sends them back).
 */
export function readAnthropicMessage(message: unknown, ref: ModelRef): ModelResult {
  const malformed = (why: string) =>
    new ProviderError('server', ref, `Anthropic sent a malformed batch result: ${why}`, {
      hint: 'retry; if it keeps happening, check ANTHROPIC_BASE_URL points at the Anthropic API',
    });
  if (!isRecord(message) || !Array.isArray(message.content)) throw malformed('no content');
  if (!isRecord(message.usage)) throw malformed('no usage');
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (!isRecord(block)) throw malformed('a content block that is not an object');
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (
      block.type === 'tool_use' &&
      typeof block.id === 'string' &&
      typeof block.name === 'string'
    )
      toolCalls.push({
        id: block.id,
        name: block.name,
        arguments: boundToolArguments(block.input ?? {}),
      });
  }
  const stop = typeof message.stop_reason === 'string' ? message.stop_reason : '';
  return {
    text,
    toolCalls,
    usage: readUsage(message.usage),
    stopReason: toAnthropicStopReason(stop),
  };
}

function readUsage(wire: Record<string, unknown>): Usage {
  const count = (key: string) => {
    const value = wire[key];
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
  };
  return {
    inputTokens: count('input_tokens'),
    outputTokens: count('output_tokens'),
    cacheReadTokens: count('cache_read_input_tokens'),
    cacheWriteTokens: count('cache_creation_input_tokens'),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
