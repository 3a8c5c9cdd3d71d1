import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentSession, type AgentSessionOptions } from '../../../src/agent/agent-session.js';
import type { AgentEvent } from '../../../src/agent/events.js';
import { loadRecording } from '../../../src/agent/replay/load-recording.js';
import { ReplayModelClient } from '../../../src/agent/replay/replay-model-client.js';
import { replayTurns } from '../../../src/agent/replay/replay-turns.js';
import { listSessions } from '../../../src/agent/session/session-store.js';
import { DEFAULT_CONFIG } from '../../../src/config/config-schema.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import type { ModelClient } from '../../../src/providers/types.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import { reply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { makeDirs } from '../session/session-fixtures.js';
import { randomChars } from '../../support/vendor-token-samples.js';

/** Replay of a multi-turn session through AgentSession: the scripted model records, the replay client answers. */
const MODEL = 'anthropic::claude-haiku-4-5';
/**
 * Small enough that turn 2 starts with a compaction (a `complete()` call) after turn 1 read a large file:
 * compaction keeps room for the next call's 8,192 output tokens, so it acts above about 9,000 prompt tokens.
 */
const CONTEXT_WINDOW = 17_200;

function sessionOptions(
  dirs: { stateDir: string; workspace: string },
  client: ModelClient,
  isSaved: boolean,
): AgentSessionOptions {
  const redactor = createRedactor();
  return {
    workspaceRoot: dirs.workspace,
    stateDir: dirs.stateDir,
    env: process.env,
    client,
    mode: 'auto',
    permissions: DEFAULT_CONFIG.permissions,
    agent: { ...DEFAULT_CONFIG.agent, sandbox: 'off', contextWindow: CONTEXT_WINDOW },
    instructions: [],
    redact: (text) => redactor.redact(text).text,
    oyVersion: '0.0.0-test',
    isSaved,
    today: '2026-11-22',
  };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function withoutTiming(events: AgentEvent[]): unknown[] {
  return events.map((event) => {
    if (event.type === 'tool_result') return { ...event, durationMs: 0 };
    if (event.type === 'done') {
      const { sessionId: _sessionId, ...rest } = event;
      return rest;
    }
    return event;
  });
}

/** Two turns recorded, the second compacting first: what a chat session leaves behind. */
async function recordTwoTurns() {
  const dirs = makeDirs();
  writeFileSync(path.join(dirs.workspace, 'big.txt'), 'a line of the big file\n'.repeat(1200));
  const model = new ScriptedModelClient({
    model: MODEL,
    script: [
      reply.toolCall('read', { path: 'big.txt' }, { text: 'Reading it.' }),
      reply.text('It repeats one line.'),
      reply.text('## Goal\n- describe big.txt'),
      reply.text('Still the same line.', { inputTokens: 77, outputTokens: 9 }),
    ],
  });
  const agent = new AgentSession(sessionOptions(dirs, model, true));
  await agent.start();
  const recorded = [
    ...(await collect(agent.runTurn('what is in big.txt?'))),
    ...(await collect(agent.runTurn('and now?'))),
  ];
  await agent.dispose();
  return { dirs, recorded };
}

async function replay(dirs: { stateDir: string; workspace: string }) {
  const recording = await loadRecording(dirs.stateDir, dirs.workspace, 'latest');
  const client = new ReplayModelClient(parseModelId(recording.summary.model));
  const agent = new AgentSession(sessionOptions(dirs, client, false));
  await agent.start();
  const events = await collect(replayTurns(agent, client, recording.turns, {}));
  await agent.dispose();
  return { recording, events };
}

describe('replaying a saved session', () => {
  it('runs every turn again from the recorded answers, compaction included, and saves nothing', async () => {
    const { dirs, recorded } = await recordTwoTurns();
    expect(recorded.filter((event) => event.type === 'done')).toHaveLength(2);
    expect(recorded.find((event) => event.type === 'compacted')).toMatchObject({
      method: 'model',
    });
    const [saved] = await listSessions(dirs.stateDir, dirs.workspace);
    const before = readFileSync(saved!.file, 'utf8');

    const { recording, events } = await replay(dirs);
    expect(recording.turns.map((turn) => turn.answers.length)).toEqual([2, 2]);
    expect(withoutTiming(events)).toEqual(withoutTiming(recorded));
    expect(readFileSync(saved!.file, 'utf8')).toBe(before);
    expect(await listSessions(dirs.stateDir, dirs.workspace)).toHaveLength(1);
  });

  it('stops at the first result that differs, and runs no later turn', async () => {
    const { dirs } = await recordTwoTurns();
    writeFileSync(path.join(dirs.workspace, 'big.txt'), 'another file now\n'.repeat(1200));
    const { events } = await replay(dirs);
    const dones = events.filter((event) => event.type === 'done');
    expect(dones).toHaveLength(1);
    expect(dones[0]).toMatchObject({ stopReason: 'error' });
    const error = events.find((event) => event.type === 'error');
    expect(error).toMatchObject({ kind: 'replay' });
    expect(error?.type === 'error' && error.message).toMatch(
      /^the replay diverged: model call 2 of turn 1: the result of read call \S+ differs from the recording/,
    );
    // The hint says what a replay depends on.
    expect(error?.type === 'error' && error.message).toContain('the workspace as it is now');
  });

  it('reproduces failed and cancelled model calls: the same events, the same ends, and the turns after them', async () => {
    const secret = `ghp_${randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 36)}`;
    const dirs = makeDirs();
    writeFileSync(path.join(dirs.workspace, 'notes.txt'), 'a note\n');
    const model = new ScriptedModelClient({
      model: MODEL,
      script: [
        // Turn 1: a tool call, then the provider refuses the next call, quoting a secret.
        reply.toolCall('read', { path: 'notes.txt' }),
        { kind: 'error', status: 400, message: `invalid request near ${secret}` },
        // Turn 2: part of an answer streams, then the stream fails.
        { kind: 'answer', textChunks: ['Half ', 'an ', 'answer'], streamErrorAfterEvents: 2 },
        // Turn 3: the user presses Ctrl-C after the first words.
        { kind: 'answer', textChunks: ['Slow ', 'words ', 'here'], eventDelayMs: 5 },
        // Turn 4: the chat went on.
        reply.text('Fine again.'),
      ],
    });
    const agent = new AgentSession(sessionOptions(dirs, model, true));
    await agent.start();
    const recorded: AgentEvent[] = [];
    for (const prompt of ['read it', 'answer', 'slowly', 'again']) {
      const controller = new AbortController();
      for await (const event of agent.runTurn(prompt, { signal: controller.signal })) {
        recorded.push(event);
        if (prompt === 'slowly' && event.type === 'text_delta') controller.abort();
      }
    }
    await agent.dispose();
    const dones = recorded.filter((event) => event.type === 'done');
    expect(dones.map((done) => done.stopReason)).toEqual([
      'error',
      'error',
      'cancelled',
      'completed',
    ]);
    const errors = recorded.filter((event) => event.type === 'error');
    expect(errors.map((error) => error.kind)).toEqual(['bad_request', 'overloaded']);
    // The provider's message passed the redactor before the user, and the session, saw it.
    expect(JSON.stringify(recorded)).not.toContain(secret);
    expect(JSON.stringify(errors[0])).toContain('[REDACTED:github-token:1]');
    const [saved] = await listSessions(dirs.stateDir, dirs.workspace);
    const file = readFileSync(saved!.file, 'utf8');
    expect(file).not.toContain(secret);
    expect(file.match(/"type":"failed_call"/gu)).toHaveLength(3);

    const { recording, events } = await replay(dirs);
    expect(recording.turns.map((turn) => turn.answers.length)).toEqual([2, 1, 1, 1]);
    expect(withoutTiming(events)).toEqual(withoutTiming(recorded));
  });

  it('a session whose one call failed, saved by an older oy (no failure line), cannot be replayed and says so', async () => {
    const dirs = makeDirs();
    const model = new ScriptedModelClient({
      model: MODEL,
      script: [{ kind: 'error', status: 400, message: 'no' }],
    });
    const agent = new AgentSession(sessionOptions(dirs, model, true));
    await agent.start();
    await collect(agent.runTurn('go'));
    await agent.dispose();
    const [saved] = await listSessions(dirs.stateDir, dirs.workspace);
    const lines = readFileSync(saved!.file, 'utf8').split('\n');
    writeFileSync(
      saved!.file,
      lines.filter((line) => !line.includes('"type":"failed_call"')).join('\n'),
    );
    await expect(replay(dirs)).rejects.toThrow('holds no recorded model answers to replay');
  });

  it('decides approvals again under the current mode, never from the recording', async () => {
    const dirs = makeDirs();
    const model = new ScriptedModelClient({
      model: MODEL,
      script: [
        reply.toolCall('write', { path: 'made.txt', content: 'made\n' }),
        reply.text('Written.'),
      ],
    });
    // Recorded in a chat in ask mode, where the user said yes.
    const agent = new AgentSession({ ...sessionOptions(dirs, model, true), mode: 'ask' });
    await agent.start();
    const recorded = await collect(
      agent.runTurn('write it', {
        interaction: { approve: async () => 'yes', ask: async () => '' },
      }),
    );
    await agent.dispose();
    expect(recorded.find((event) => event.type === 'approval')).toMatchObject({
      decision: 'ask',
      answer: 'yes',
    });
    const replayIn = async (mode: 'ask' | 'edit') => {
      rmSync(path.join(dirs.workspace, 'made.txt'), { force: true });
      const recording = await loadRecording(dirs.stateDir, dirs.workspace, 'latest');
      const client = new ReplayModelClient(parseModelId(recording.summary.model));
      const again = new AgentSession({ ...sessionOptions(dirs, client, false), mode });
      await again.start();
      const events = await collect(replayTurns(again, client, recording.turns, {}));
      await again.dispose();
      return events;
    };
    // In ask mode no one can answer now: the write is refused, and the replay diverges there.
    const asking = await replayIn('ask');
    expect(asking.find((event) => event.type === 'approval')).toMatchObject({
      decision: 'deny',
      isUnattended: true,
    });
    expect(asking.at(-1)).toMatchObject({ type: 'done', stopReason: 'error' });
    expect(existsSync(path.join(dirs.workspace, 'made.txt'))).toBe(false);
    // In edit mode the mode allows it: the same run, with the approval the mode gave, not the user's.
    const editing = await replayIn('edit');
    expect(editing.find((event) => event.type === 'approval')).toMatchObject({
      decision: 'allow',
      rule: 'mode:edit',
    });
    expect(editing.find((event) => event.type === 'approval')).not.toHaveProperty('answer');
    expect(editing.at(-1)).toMatchObject({ type: 'done', stopReason: 'completed' });
    expect(readFileSync(path.join(dirs.workspace, 'made.txt'), 'utf8')).toBe('made\n');
  });
});
