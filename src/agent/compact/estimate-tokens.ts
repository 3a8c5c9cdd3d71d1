import type { Message, ToolDefinition } from '../../providers/types.js';

/** Code and prose run about 4 characters a token, digit-heavy JSON about 3: 3 errs high for most transcripts. */
export const ASCII_CHARS_PER_TOKEN = 3;

/** Role markers, block wrappers and ids the serialized request adds around each message, tool call or result. */
export const OVERHEAD_TOKENS_PER_PART = 8;

export interface TokenEstimateInput {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
}

/**
 * A fast, slightly high estimate of a request's prompt tokens, cheap enough for every model call (no
 * tokenizer is loaded): ASCII characters count a third of a token each, any other UTF-16 unit a whole
 * token (CJK text and emoji run about one token a character), plus a fixed overhead per part. Tool calls
 * count their JSON arguments; tools count their name, description and JSON schema.
 */
export function estimateRequestTokens(request: TokenEstimateInput): number {
  const counter = { ascii: 0, other: 0, parts: 1 };
  tally(counter, request.system);
  for (const tool of request.tools) {
    counter.parts += 1;
    tally(counter, tool.name, tool.description, JSON.stringify(tool.inputSchema));
  }
  for (const message of request.messages) tallyMessage(counter, message);
  return (
    Math.ceil(counter.ascii / ASCII_CHARS_PER_TOKEN) +
    counter.other +
    counter.parts * OVERHEAD_TOKENS_PER_PART
  );
}

/** The same estimate for one text alone, without any overhead. */
export function estimateTextTokens(text: string): number {
  const counter = { ascii: 0, other: 0, parts: 0 };
  tally(counter, text);
  return Math.ceil(counter.ascii / ASCII_CHARS_PER_TOKEN) + counter.other;
}

interface Counter {
  ascii: number;
  other: number;
  parts: number;
}

function tallyMessage(counter: Counter, message: Message): void {
  counter.parts += 1;
  switch (message.role) {
    case 'user':
      tally(counter, message.text);
      for (const document of message.documents ?? []) {
        counter.parts += 1;
        tally(counter, document.name, document.data);
      }
      return;
    case 'assistant':
      tally(counter, message.text);
      for (const call of message.toolCalls) {
        counter.parts += 1;
        tally(counter, call.id, call.name, JSON.stringify(call.arguments) ?? '');
      }
      return;
    case 'tool':
      for (const result of message.results) {
        counter.parts += 1;
        tally(counter, result.toolCallId, result.content);
      }
  }
}

function tally(counter: Counter, ...texts: string[]): void {
  for (const text of texts) {
    let other = 0;
    for (let index = 0; index < text.length; index += 1) {
      if (text.charCodeAt(index) > 0x7f) other += 1;
    }
    counter.other += other;
    counter.ascii += text.length - other;
  }
}
