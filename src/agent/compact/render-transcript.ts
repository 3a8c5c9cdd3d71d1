import type { Message } from '../../providers/types.js';
import { SUMMARY_INPUT_RESULT_CHARS } from './compaction-limits.js';
import { estimateTextTokens } from './estimate-tokens.js';

export interface TranscriptToRender {
  /** The user's first message, kept verbatim after compaction; shown for context. */
  firstUserText: string | undefined;
  /** What an earlier compaction left, when this is a second one. */
  earlierSummary: string | undefined;
  /** The turns the summary replaces. */
  older: readonly Message[];
}

/** The older turns as plain text for the summarizing model, each tool output cut to its gist. */
export function renderTranscript(transcript: TranscriptToRender): string {
  const sections: string[] = [];
  if (transcript.firstUserText !== undefined && transcript.firstUserText.trim() !== '') {
    sections.push(`### The user's first message (kept verbatim)\n${transcript.firstUserText}`);
  }
  if (transcript.earlierSummary !== undefined) {
    sections.push(`### An earlier summary\n${transcript.earlierSummary}`);
  }
  const toolNames = new Map<string, string>();
  for (const message of transcript.older) {
    switch (message.role) {
      case 'user': {
        const names = (message.documents ?? []).map((document) => document.name);
        const attached = names.length > 0 ? `\n(documents attached: ${names.join(', ')})` : '';
        sections.push(`### User\n${message.text}${attached}`);
        break;
      }
      case 'assistant': {
        const lines = message.text.trim() === '' ? [] : [message.text];
        for (const call of message.toolCalls) {
          toolNames.set(call.id, call.name);
          lines.push(`-> ${call.name} ${cutMiddle(JSON.stringify(call.arguments) ?? '{}')}`);
        }
        sections.push(`### Assistant\n${lines.join('\n')}`);
        break;
      }
      case 'tool':
        for (const result of message.results) {
          const name = toolNames.get(result.toolCallId) ?? 'tool';
          const status = result.isError ? ' (error)' : '';
          sections.push(`### Result of ${name}${status}\n${cutMiddle(result.content)}`);
        }
    }
  }
  return sections.join('\n\n');
}

/** The text cut to about `maxTokens` (estimated), keeping its head and tail around a marker. */
export function capTextTokens(text: string, maxTokens: number): string {
  const tokens = estimateTextTokens(text);
  if (tokens <= maxTokens) return text;
  const keep = Math.max(0, Math.floor((text.length * maxTokens) / tokens) - 100);
  return cutMiddle(text, keep);
}

function cutMiddle(text: string, maxChars = SUMMARY_INPUT_RESULT_CHARS): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars / 2);
  const tail = maxChars - head;
  const removed = text.length - head - tail;
  return `${text.slice(0, head)}\n…[${removed} characters cut]…\n${text.slice(text.length - tail)}`;
}
