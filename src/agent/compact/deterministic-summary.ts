import type { ToolCall, ToolResult } from '../../providers/types.js';
import {
  DETERMINISTIC_EARLIER_SUMMARY_CHARS,
  DETERMINISTIC_MAX_TOOL_CALLS,
  DETERMINISTIC_TEXT_CHARS,
} from './compaction-limits.js';
import type { TranscriptToRender } from './render-transcript.js';

// Arguments worth naming in a one-line account of a call, in this order.
const KEY_ARGUMENTS = ['path', 'command', 'pattern', 'url', 'glob', 'question'] as const;
// Tools whose success changes files, and so belongs under "Changes made".
const WRITE_TOOLS = new Set(['write', 'edit', 'replace']);
// One argument or error message in a line is cut to this many characters.
const INLINE_CHARS = 160;

interface CallRecord {
  call: ToolCall;
  outcome: string;
  isOk: boolean;
}

/** A summary built from the transcript alone, for when the model summary fails: what was asked, run and changed. */
export function buildDeterministicSummary(transcript: TranscriptToRender): string {
  const userTexts: string[] = [];
  const records: CallRecord[] = [];
  let lastAnswer = '';
  const pending = new Map<string, ToolCall>();
  for (const message of transcript.older) {
    if (message.role === 'user') userTexts.push(message.text);
    if (message.role === 'assistant') {
      if (message.text.trim() !== '') lastAnswer = message.text;
      for (const call of message.toolCalls) pending.set(call.id, call);
    }
    if (message.role === 'tool') {
      for (const result of message.results) {
        const call = pending.get(result.toolCallId);
        if (call) records.push({ call, ...describeOutcome(result) });
      }
    }
  }
  const shown = records.slice(-DETERMINISTIC_MAX_TOOL_CALLS);
  const omitted = records.length - shown.length;
  const sections = [
    '(Written by oy without a model, because the summary request failed.)',
    section(
      'User messages',
      userTexts.map((text) => cut(text, DETERMINISTIC_TEXT_CHARS)),
    ),
    section('Tool calls', [
      ...(omitted > 0 ? [`(${omitted} earlier calls not listed)`] : []),
      ...shown.map((record) => `${describeCall(record.call)}: ${record.outcome}`),
    ]),
    section(
      'Changes made',
      records
        .filter((record) => record.isOk && WRITE_TOOLS.has(record.call.name))
        .map((record) => describeCall(record.call)),
    ),
    section(
      'Commands and results',
      records
        .filter((record) => record.call.name === 'bash')
        .map((record) => `${describeCall(record.call)}: ${record.outcome}`),
    ),
    section(
      'Last assistant message',
      lastAnswer === '' ? [] : [cut(lastAnswer, DETERMINISTIC_TEXT_CHARS)],
    ),
  ];
  if (transcript.earlierSummary !== undefined) {
    sections.push(
      `## An earlier summary\n${cut(transcript.earlierSummary, DETERMINISTIC_EARLIER_SUMMARY_CHARS)}`,
    );
  }
  return sections.join('\n\n');
}

function section(title: string, items: string[]): string {
  const body = items.length === 0 ? '- none' : items.map((item) => `- ${item}`).join('\n');
  return `## ${title}\n${body}`;
}

function describeCall(call: ToolCall): string {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  const named = KEY_ARGUMENTS.filter((key) => typeof args[key] === 'string').map(
    (key) => `${key}=${JSON.stringify(cut(args[key] as string, INLINE_CHARS))}`,
  );
  return [call.name, ...named].join(' ');
}

// ok, exit N, or the error, read from the compact JSON a tool returned (or the head of a shortened one).
function describeOutcome(result: ToolResult): { outcome: string; isOk: boolean } {
  const fields = readOutcomeFields(result.content);
  if (result.isError || fields.ok === false) {
    const error = typeof fields.error === 'string' ? fields.error : result.content;
    return { outcome: `error: ${cut(error, INLINE_CHARS)}`, isOk: false };
  }
  if (fields.timed_out === true) return { outcome: 'timed out', isOk: false };
  if (typeof fields.exit_code === 'number') {
    return { outcome: `exit ${fields.exit_code}`, isOk: fields.exit_code === 0 };
  }
  if (typeof fields.signal === 'string') {
    return { outcome: `killed by ${fields.signal}`, isOk: false };
  }
  return { outcome: 'ok', isOk: true };
}

function readOutcomeFields(content: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(content);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    // Shortened JSON no longer parses; its head still holds the small fields a tool puts first.
    const fields: Record<string, unknown> = {};
    if (content.startsWith('{"ok":false')) fields.ok = false;
    const exit = /"exit_code":(-?\d+)/.exec(content);
    if (exit) fields.exit_code = Number(exit[1]);
    if (content.includes('"timed_out":true')) fields.timed_out = true;
    const error = /"error":("(?:[^"\\]|\\.)*")/.exec(content);
    if (error) fields.error = JSON.parse(error[1]!) as string;
    return fields;
  }
}

function cut(text: string, maxChars: number): string {
  const flat = text.trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars)}…`;
}
