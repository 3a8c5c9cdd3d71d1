import { z } from 'zod';
import { MAX_ARGUMENT_DEPTH, jsonTextNestsDeeper } from '../../providers/bound-tool-arguments.js';
import type { ModelStopReason } from '../../providers/types.js';
import type { SessionRecord } from './session-types.js';

// A session file is an edge: a crash, a disk error or a hand edit can leave anything in it.
const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });
const toolResult = z.object({
  toolCallId: z.string(),
  content: z.string(),
  isError: z.boolean().optional(),
});
const document = z.object({
  name: z.string(),
  format: z.enum(['txt', 'md', 'html', 'csv', 'pdf']),
  data: z.string(),
});
const thinkingSource = z.enum(['anthropic', 'bedrock', 'openai']);
const thinkingPart = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('thinking'),
    source: thinkingSource,
    text: z.string(),
    signature: z.string().optional(),
  }),
  z.object({ type: z.literal('redacted_thinking'), source: thinkingSource, data: z.string() }),
]);
const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), text: z.string(), documents: z.array(document).optional() }),
  z.object({
    role: z.literal('assistant'),
    text: z.string(),
    toolCalls: z.array(toolCall),
    thinking: z.array(thinkingPart).optional(),
  }),
  z.object({ role: z.literal('tool'), results: z.array(toolResult) }),
]);
const count = z.number().int().nonnegative();
const usage = z.object({
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
});
// A record, so the compiler asks for a new stop reason here too.
const STOP_REASONS: Record<ModelStopReason, true> = {
  end_turn: true,
  tool_use: true,
  max_tokens: true,
  stop_sequence: true,
  refusal: true,
  context_exceeded: true,
  content_filter: true,
  pause_turn: true,
  malformed: true,
  other: true,
};
const stopReason = z.enum(Object.keys(STOP_REASONS) as [ModelStopReason, ...ModelStopReason[]]);
const answer = {
  input: z.array(z.string()),
  text: z.string(),
  thinking: z.array(thinkingPart).optional(),
  toolCalls: z.array(toolCall),
  usage,
  stopReason,
  deltas: z.array(z.number().int()).optional(),
  shownThinking: z.string().optional(),
};
const failure = {
  input: z.array(z.string()),
  text: z.string(),
  deltas: z.array(z.number().int()),
  shownThinking: z.string().optional(),
  failure: z.discriminatedUnion('type', [
    z.object({ type: z.literal('cancelled') }),
    z.object({ type: z.literal('error'), kind: z.string(), message: z.string() }),
  ]),
};
const approval = {
  toolCallId: z.string(),
  tool: z.string(),
  summary: z.string(),
  decision: z.enum(['allow', 'ask', 'deny']),
  outcome: z.enum(['allowed', 'denied']),
  rule: z.string().optional(),
  reason: z.string(),
  answer: z.enum(['yes', 'no', 'always']).optional(),
  askedBy: z.string().optional(),
  offer: z.string().optional(),
  granted: z.array(z.string()).optional(),
  isUnattended: z.literal(true).optional(),
};
const todo = z.object({
  id: z.string(),
  task: z.string(),
  status: z.enum(['pending', 'in_progress', 'done']),
});
const at = z.string();

const sessionRecord = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session'),
    version: z.literal(1),
    id: z.string().regex(/^[A-Za-z0-9_-]+$/),
    workspace: z.string(),
    model: z.string(),
    createdAt: at,
    oyVersion: z.string(),
    name: z.string().optional(),
  }),
  z.object({ type: z.literal('message'), at, turn: count, message }),
  z.object({ type: z.literal('answer'), at, turn: count, ...answer }),
  z.object({ type: z.literal('failed_call'), at, turn: count, ...failure }),
  z.object({ type: z.literal('approval'), at, turn: count, ...approval }),
  z.object({
    type: z.literal('turn'),
    at,
    turn: count,
    usage,
    costUsd: z.number().nonnegative().nullable(),
  }),
  z.object({ type: z.literal('todos'), at, todos: z.array(todo) }),
  z.object({
    type: z.literal('compacted'),
    at,
    messages: z.array(message),
    tokensBefore: count,
    tokensAfter: count,
  }),
  z.object({ type: z.literal('undo'), at, turn: count }),
  z.object({ type: z.literal('name'), at, name: z.string() }),
  z.object({ type: z.literal('resumed'), at }),
]);

/**
 * How deep a line may nest: tool arguments were cut at MAX_ARGUMENT_DEPTH when recorded, and a record
 * wraps them in a few levels more (record, message, calls, call). A deeper line was not written by oy,
 * and would overflow the stack of whatever serialises it again (`oy sessions show`, a resumed request).
 */
const MAX_LINE_DEPTH = MAX_ARGUMENT_DEPTH + 8;

/** One line of a session file, or undefined for a torn, garbled, too deep or unknown (newer) line. */
export function parseSessionLine(line: string): SessionRecord | undefined {
  if (jsonTextNestsDeeper(line, MAX_LINE_DEPTH)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = sessionRecord.safeParse(value);
  return parsed.success ? (parsed.data as SessionRecord) : undefined;
}
