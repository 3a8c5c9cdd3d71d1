import { z } from 'zod';
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

/** One line of a session file, or undefined for a torn, garbled or unknown (newer) line. */
export function parseSessionLine(line: string): SessionRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = sessionRecord.safeParse(value);
  return parsed.success ? (parsed.data as SessionRecord) : undefined;
}
