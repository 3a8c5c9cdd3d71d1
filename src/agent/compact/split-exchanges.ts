import type { Message } from '../../providers/types.js';

/**
 * Where each exchange starts: a user message, or a model call (an assistant message) that does not
 * answer a user message directly. An exchange runs to the next start, so an assistant message with
 * tool calls and the `tool` message with their results always fall in the same exchange: cutting
 * the transcript only at these indices never separates a call from its result.
 */
export function findExchangeStarts(messages: readonly Message[], from = 0): number[] {
  const starts: number[] = [];
  for (let index = from; index < messages.length; index += 1) {
    if (isExchangeStart(messages, index, from)) starts.push(index);
  }
  return starts;
}

function isExchangeStart(messages: readonly Message[], index: number, from: number): boolean {
  const message = messages[index]!;
  if (index === from || message.role === 'user') return true;
  if (message.role === 'tool') return false;
  return messages[index - 1]?.role !== 'user';
}
