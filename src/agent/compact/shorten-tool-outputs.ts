import type { Message, ToolCall, ToolResult } from '../../providers/types.js';
import {
  SHORTEN_ABOVE_CHARS,
  SHORTENED_HEAD_CHARS,
  SHORTENED_TAIL_CHARS,
} from './compaction-limits.js';

/** Said where the middle of an old output was removed, so the model knows to run the tool again if it needs it. */
export function shortenedMarker(removedChars: number): string {
  return `\n…[${removedChars} characters of this old output removed to save context]…\n`;
}

/** The text's head and tail around a marker; unchanged when shorter than SHORTEN_ABOVE_CHARS. */
export function shortenText(text: string): string {
  if (text.length < SHORTEN_ABOVE_CHARS) return text;
  const removed = text.length - SHORTENED_HEAD_CHARS - SHORTENED_TAIL_CHARS;
  return (
    text.slice(0, SHORTENED_HEAD_CHARS) +
    shortenedMarker(removed) +
    text.slice(text.length - SHORTENED_TAIL_CHARS)
  );
}

/**
 * Shortens the tool outputs, and the long string arguments of tool calls (a `write`'s content), in every
 * message before index `keepFrom`; later messages are returned as they are. Messages that need no change
 * keep their identity, and arguments stay valid JSON values.
 */
export function shortenToolOutputs(messages: readonly Message[], keepFrom: number): Message[] {
  return messages.map((message, index) => {
    if (index >= keepFrom) return message;
    if (message.role === 'tool') {
      if (!message.results.some((result) => result.content.length >= SHORTEN_ABOVE_CHARS)) {
        return message;
      }
      return { role: 'tool', results: message.results.map(shortenResult) };
    }
    if (message.role === 'assistant' && message.toolCalls.some(hasLongString)) {
      return { ...message, toolCalls: message.toolCalls.map(shortenCall) };
    }
    return message;
  });
}

function shortenResult(result: ToolResult): ToolResult {
  return { ...result, content: shortenText(result.content) };
}

function shortenCall(call: ToolCall): ToolCall {
  return { ...call, arguments: shortenStrings(call.arguments) };
}

function hasLongString(call: ToolCall): boolean {
  return shortenStrings(call.arguments) !== call.arguments;
}

// The value with every long string shortened; the same object when nothing changed.
function shortenStrings(value: unknown): unknown {
  if (typeof value === 'string') return shortenText(value);
  if (Array.isArray(value)) {
    const items = value.map(shortenStrings);
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(
      ([key, item]) => [key, shortenStrings(item)] as const,
    );
    const isChanged = entries.some(
      ([key, item]) => item !== (value as Record<string, unknown>)[key],
    );
    return isChanged ? Object.fromEntries(entries) : value;
  }
  return value;
}
