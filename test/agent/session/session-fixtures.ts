import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Message, Usage } from '../../../src/providers/types.js';
import { createSession } from '../../../src/agent/session/session-store.js';
import type { SessionWriter } from '../../../src/agent/session/session-types.js';

/** A fresh state directory and workspace, both real paths. */
export function makeDirs(): { stateDir: string; workspace: string } {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-session-')));
  const workspace = path.join(base, 'my project');
  mkdirSync(workspace);
  return { stateDir: path.join(base, 'state', 'oy'), workspace };
}

/** A clock that moves one second per call, so record order is the time order. */
export function steppingClock(start = Date.UTC(2026, 10, 22, 4, 44, 0)): () => Date {
  let now = start;
  return () => new Date((now += 1000));
}

export function usage(inputTokens: number, outputTokens = 10): Usage {
  return { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

export const user = (text: string): Message => ({ role: 'user', text });
export const answer = (text: string): Message => ({ role: 'assistant', text, toolCalls: [] });
export const calls = (...ids: string[]): Message => ({
  role: 'assistant',
  text: '',
  toolCalls: ids.map((id) => ({ id, name: 'read', arguments: { path: `${id}.txt` } })),
});
export const results = (...ids: string[]): Message => ({
  role: 'tool',
  results: ids.map((id) => ({ toolCallId: id, content: `{"ok":true,"id":"${id}"}` })),
});

/** Writes one finished turn: its messages, then the `turn` line. */
export async function writeTurn(
  writer: SessionWriter,
  turn: number,
  messages: readonly Message[],
  costUsd: number | null = 0.01,
): Promise<void> {
  for (const message of messages) await writer.appendMessage(turn, message);
  await writer.endTurn(turn, usage(100 * turn), costUsd);
}

export const TURN_1 = [user('list the files\nplease'), calls('c1'), results('c1'), answer('three')];
export const TURN_2 = [user('read two'), calls('c2', 'c3'), results('c2', 'c3'), answer('done')];
export const TURN_3 = [user('and now?'), answer('nothing left')];

/** A session with three finished turns, todos and a crashed fourth turn. */
export async function writeSampleSession(
  stateDir: string,
  workspace: string,
  now = steppingClock(),
) {
  const writer = await createSession({
    stateDir,
    workspaceRoot: workspace,
    model: 'anthropic::m',
    oyVersion: '0.1.0',
    now,
  });
  await writeTurn(writer, 1, TURN_1);
  await writer.saveTodos([{ id: '1', task: 'read two', status: 'in_progress' }]);
  await writeTurn(writer, 2, TURN_2);
  await writeTurn(writer, 3, TURN_3);
  await writer.appendMessage(4, user('crashing turn'));
  await writer.appendMessage(4, calls('c4', 'c5'));
  await writer.appendMessage(4, results('c4'));
  return writer;
}

/** Asserts what every provider needs: each tool call answered right after it, no stray results, no user-user. */
export function expectValidTranscript(messages: readonly Message[]): void {
  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    if (message.role === 'tool') {
      expect(previous?.role).toBe('assistant');
      const ids = previous?.role === 'assistant' ? previous.toolCalls.map((call) => call.id) : [];
      expect(message.results.map((result) => result.toolCallId)).toEqual(ids);
    }
    if (message.role === 'assistant' && message.toolCalls.length > 0)
      expect(messages[index + 1]?.role).toBe('tool');
    if (message.role === 'user') expect(previous?.role).not.toBe('user');
  });
  if (messages.length > 0) {
    expect(messages[0]?.role).toBe('user');
    expect(messages.at(-1)?.role).not.toBe('user');
  }
}
