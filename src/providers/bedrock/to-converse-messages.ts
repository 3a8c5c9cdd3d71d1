import type {
  ContentBlock,
  DocumentBlock,
  Message as ConverseMessage,
  ToolUseBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type { DocumentInput, Message, ThinkingPart } from '../types.js';
import { toToolInput } from '../to-tool-input.js';
import { createDocumentNamer } from './sanitise-document-name.js';

/** A JSON value as the SDK types a document field (tool input, input schema). */
export type JsonDocument = NonNullable<ToolUseBlock['input']>;

/** Marks the end of a cacheable prefix (Claude and Nova on Bedrock). */
export const CACHE_POINT = { cachePoint: { type: 'default' } } as const;

/** Converse takes at most this many document blocks per request; later text documents go as text. */
export const MAX_CONVERSE_DOCUMENTS = 5;

/** Bedrock rejects blank text blocks and empty turns, so an empty result or turn says so in words. */
const EMPTY_TEXT = '(empty)';

export interface ConverseMessageOptions {
  /** Put a cache point after the latest message, so the next call re-reads the conversation from cache. */
  cacheLastMessage: boolean;
  /** Send `toolResult.status` (Claude and Nova accept it; Llama and Mistral reject the request). */
  sendToolResultStatus: boolean;
}

/**
 * Our conversation as Converse messages: tool results become a user turn of `toolResult` blocks, and
 * consecutive turns of one role are merged, because Bedrock requires user and assistant to alternate.
 */
export function toConverseMessages(
  messages: Message[],
  options: ConverseMessageOptions,
): ConverseMessage[] {
  const nameDocument = createDocumentNamer();
  let documentsLeft = MAX_CONVERSE_DOCUMENTS;
  const toDocument = (document: DocumentInput): ContentBlock => {
    if (documentsLeft > 0 || document.format === 'pdf') {
      documentsLeft -= 1;
      return { document: toDocumentBlock(document, nameDocument) };
    }
    const name = document.name.replaceAll('"', '&quot;');
    return {
      text: `<document name="${name}" format="${document.format}">\n${document.data}\n</document>`,
    };
  };
  const converse: ConverseMessage[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = toContentBlocks(message, toDocument, options.sendToolResultStatus);
    const previous = converse.at(-1);
    if (previous?.role === role) previous.content = [...(previous.content ?? []), ...content];
    else converse.push({ role, content });
  }
  const last = converse.at(-1);
  if (options.cacheLastMessage && last) last.content = [...(last.content ?? []), CACHE_POINT];
  return converse;
}

function toContentBlocks(
  message: Message,
  toDocument: (document: DocumentInput) => ContentBlock,
  sendStatus: boolean,
): ContentBlock[] {
  switch (message.role) {
    case 'user':
      return orEmptyText([
        ...(message.documents ?? []).map(toDocument),
        ...textBlock(message.text),
      ]);
    case 'assistant': {
      const said: ContentBlock[] = [
        ...textBlock(message.text),
        ...message.toolCalls.map((call) => ({
          toolUse: {
            toolUseId: call.id,
            name: call.name,
            input: toToolInput(call.arguments) as JsonDocument,
          },
        })),
      ];
      // Reasoning alone (an answer cut short) cannot go back: Claude refuses a turn that ends in it.
      return orEmptyText(
        said.length === 0 ? [] : [...(message.thinking ?? []).flatMap(toReasoningBlock), ...said],
      );
    }
    case 'tool':
      return message.results.map((result) => ({
        toolResult: {
          toolUseId: result.toolCallId,
          content: [{ text: result.content.trim() === '' ? EMPTY_TEXT : result.content }],
          ...(sendStatus ? { status: result.isError ? 'error' : 'success' } : {}),
        },
      }));
  }
}

/** Bedrock's own reasoning goes back unchanged, signature included; another service's cannot be verified. */
function toReasoningBlock(part: ThinkingPart): ContentBlock[] {
  if (part.source !== 'bedrock') return [];
  if (part.type === 'redacted_thinking')
    return [{ reasoningContent: { redactedContent: Buffer.from(part.data, 'base64') } }];
  return [
    {
      reasoningContent: {
        reasoningText: {
          text: part.text,
          ...(part.signature === undefined ? {} : { signature: part.signature }),
        },
      },
    },
  ];
}

function orEmptyText(blocks: ContentBlock[]): ContentBlock[] {
  return blocks.length > 0 ? blocks : [{ text: EMPTY_TEXT }];
}

/** Bedrock rejects blank text blocks: an empty text says nothing, so it is left out. */
function textBlock(text: string): ContentBlock[] {
  return text.trim() === '' ? [] : [{ text }];
}

function toDocumentBlock(
  document: DocumentInput,
  nameDocument: (name: string) => string,
): DocumentBlock {
  const bytes = Buffer.from(document.data, document.format === 'pdf' ? 'base64' : 'utf8');
  return { name: nameDocument(document.name), format: document.format, source: { bytes } };
}
