import type Anthropic from '@anthropic-ai/sdk';
import type { DocumentInput, Message, ThinkingPart, ToolCall } from '../types.js';
import { toToolInput } from '../to-tool-input.js';

/** A user turn with nothing to say still needs a block: the API rejects empty content. */
const EMPTY_USER_TEXT = '(empty)';

/**
 * Our conversation in Messages API form; every message's content is an array of blocks. Thinking from
 * Anthropic goes back first in its turn, unchanged with its signature (a tool loop requires it).
 */
export function toAnthropicMessages(messages: Message[]): Anthropic.MessageParam[] {
  const converted: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    const content = toContentBlocks(message);
    // The API rejects empty content, and an assistant turn with nothing in it carries nothing.
    if (content.length === 0 && message.role === 'assistant') continue;
    if (content.length === 0) content.push({ type: 'text', text: EMPTY_USER_TEXT });
    converted.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content });
  }
  return converted;
}

function toContentBlocks(message: Message): Anthropic.ContentBlockParam[] {
  switch (message.role) {
    case 'user':
      // Documents first: the API's guidance is to put long material before the question.
      return [...(message.documents ?? []).map(toDocumentBlock), ...textBlocks(message.text)];
    case 'assistant': {
      const said = [...textBlocks(message.text), ...message.toolCalls.map(toToolUseBlock)];
      // Thinking alone (an answer cut short) cannot go back: the API refuses a turn that ends in thinking.
      return said.length === 0
        ? []
        : [...(message.thinking ?? []).flatMap(toThinkingBlock), ...said];
    }
    case 'tool':
      return message.results.map((result): Anthropic.ToolResultBlockParam => ({
        type: 'tool_result',
        tool_use_id: result.toolCallId,
        content: result.content,
        ...(result.isError ? { is_error: true } : {}),
      }));
  }
}

/** The API rejects empty and whitespace-only text blocks (models often answer "\n\n" before a tool call). */
function textBlocks(text: string): Anthropic.TextBlockParam[] {
  return text.trim() === '' ? [] : [{ type: 'text', text }];
}

/** Only Anthropic's own signed thinking goes back; another service's would fail its signature check. */
function toThinkingBlock(
  part: ThinkingPart,
): (Anthropic.ThinkingBlockParam | Anthropic.RedactedThinkingBlockParam)[] {
  if (part.source !== 'anthropic') return [];
  if (part.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: part.data }];
  return part.signature === undefined
    ? []
    : [{ type: 'thinking', thinking: part.text, signature: part.signature }];
}

function toDocumentBlock(document: DocumentInput): Anthropic.DocumentBlockParam {
  const source: Anthropic.DocumentBlockParam['source'] =
    document.format === 'pdf'
      ? { type: 'base64', media_type: 'application/pdf', data: document.data }
      : { type: 'text', media_type: 'text/plain', data: document.data };
  return { type: 'document', title: document.name, source };
}

function toToolUseBlock(call: ToolCall): Anthropic.ToolUseBlockParam {
  return { type: 'tool_use', id: call.id, name: call.name, input: toToolInput(call.arguments) };
}
