import { createHash } from 'node:crypto';
import type { Message } from '../types.js';
import type { ToolCallIdRule } from './tool-call-id-rules.js';

/** Hex digits of the original id's hash kept in a changed id: enough to keep distinct ids distinct. */
const HASH_DIGITS = 12;

/**
 * The conversation with every tool-use id the service would refuse replaced, in its calls and
 * their results alike. An id the rule accepts is kept as it is, and a changed id depends only on
 * the original, so the mapping is the same in every request of a session; the saved session
 * keeps the original ids.
 */
export function fitToolCallIds(messages: Message[], rule: ToolCallIdRule): Message[] {
  if (!messages.some((message) => hasUnfitId(message, rule))) return messages;
  const fit = (id: string) => fitToolCallId(id, rule);
  return messages.map((message): Message => {
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      return {
        ...message,
        toolCalls: message.toolCalls.map((call) => ({ ...call, id: fit(call.id) })),
      };
    }
    if (message.role === 'tool') {
      return {
        ...message,
        results: message.results.map((result) => ({
          ...result,
          toolCallId: fit(result.toolCallId),
        })),
      };
    }
    return message;
  });
}

/** One id as the rule accepts it: unchanged when it is accepted, else its safe characters and a hash of it. */
export function fitToolCallId(id: string, rule: ToolCallIdRule): string {
  if (isFit(id, rule)) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, HASH_DIGITS);
  // The readable part keeps what the id said (`functions_list_0`); the hash keeps ids apart
  // that differ only in characters the rule drops (`a.b` and `a:b`).
  const readable = id.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, rule.maxLength - HASH_DIGITS - 1);
  return readable === '' ? `t${hash}` : `${readable}_${hash}`;
}

function isFit(id: string, rule: ToolCallIdRule): boolean {
  return id.length >= 1 && id.length <= rule.maxLength && (rule.allowed?.test(id) ?? true);
}

function hasUnfitId(message: Message, rule: ToolCallIdRule): boolean {
  if (message.role === 'assistant') return message.toolCalls.some((call) => !isFit(call.id, rule));
  if (message.role === 'tool')
    return message.results.some((result) => !isFit(result.toolCallId, rule));
  return false;
}
