import { expect } from 'vitest';
import {
  EMPTY_USAGE,
  type Message,
  type ModelClient,
  type ModelRequest,
  type ModelResult,
  type ToolCall,
} from '../../../src/providers/types.js';
import { seededRandom } from '../../support/seeded-random.js';

const TOOL_NAMES = ['read', 'search', 'bash', 'edit', 'write', 'list'] as const;

/**
 * A valid transcript as the loop builds it before a model call: a first user message, then model calls
 * (with their tool results, or a text answer followed by the next user message); ends on a `tool` or `user`.
 */
export function randomTranscript(seed: number): Message[] {
  const random = seededRandom(seed);
  const pick = (max: number): number => Math.floor(random() * max);
  const messages: Message[] = [{ role: 'user', text: `Task ${seed}: fix the failing build.` }];
  const steps = 1 + pick(30);
  let callNumber = 0;
  for (let step = 0; step < steps; step += 1) {
    if (random() < 0.7) {
      const calls: ToolCall[] = Array.from({ length: 1 + pick(3) }, () => {
        callNumber += 1;
        const name = TOOL_NAMES[pick(TOOL_NAMES.length)]!;
        const content = name === 'write' ? 'x'.repeat(pick(8_000)) : `line ${callNumber}`;
        return {
          id: `call_${callNumber}`,
          name,
          arguments: { path: `src/f${callNumber}.ts`, content },
        };
      });
      messages.push({
        role: 'assistant',
        text: random() < 0.5 ? '' : 'Checking.',
        toolCalls: calls,
      });
      messages.push({
        role: 'tool',
        results: calls.map((call) => ({
          toolCallId: call.id,
          content: JSON.stringify({ ok: true, output: 'o'.repeat(pick(12_000)) }),
        })),
      });
    } else {
      messages.push({ role: 'assistant', text: `Answer ${step}.`, toolCalls: [] });
      messages.push({ role: 'user', text: `Follow-up ${step}.` });
    }
  }
  return messages;
}

/** Fails the test unless the transcript is valid for every provider. */
export function expectValidTranscript(messages: readonly Message[]): void {
  expect(messages[0]?.role).toBe('user');
  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    if (message.role === 'user')
      expect(previous?.role, `user after user at ${index}`).not.toBe('user');
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      const next = messages[index + 1];
      expect(next?.role, `results right after the calls at ${index}`).toBe('tool');
      const resultIds = next?.role === 'tool' ? next.results.map((r) => r.toolCallId) : [];
      expect(resultIds.sort()).toEqual(message.toolCalls.map((call) => call.id).sort());
    }
    if (message.role === 'tool') {
      expect(
        previous?.role === 'assistant' && previous.toolCalls.length > 0,
        `tool at ${index}`,
      ).toBe(true);
    }
  });
}

/** Every call id in the transcript, in order. */
export function callIds(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    message.role === 'assistant' ? message.toolCalls.map((call) => call.id) : [],
  );
}

/** An in-process client: answers each summary request with `answer` (or throws it), and records requests. */
export function scriptedClient(answer: string | Error): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    ref: { provider: 'anthropic', model: 'claude-test', id: 'anthropic::claude-test' },
    requests,
    complete(request: ModelRequest): Promise<ModelResult> {
      requests.push(request);
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({
        text: answer,
        toolCalls: [],
        usage: { ...EMPTY_USAGE, inputTokens: 100, outputTokens: 20 },
        stopReason: 'end_turn',
      });
    },
    stream(): AsyncIterable<never> {
      throw new Error('compaction must not stream');
    },
  };
}
