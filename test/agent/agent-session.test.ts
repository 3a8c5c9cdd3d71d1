import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentSession } from '../../src/agent/agent-session.js';
import type { Interaction } from '../../src/agent/authorize/interaction.js';
import type { AgentEvent } from '../../src/agent/events.js';
import type { SafetyMode } from '../../src/safety/policy/safety-mode.js';
import { createRedactor } from '../../src/safety/redact/index.js';
import { reply } from '../fakes/script.js';
import { ScriptedModelClient } from '../fakes/scripted-model-client.js';

/**
 * The one session object `oy run` and `oy chat` render (ARCHITECTURE.md "Agent mode"): the interaction
 * is the one sign that someone can answer, and the session keeps state, totals and undo across turns.
 */

function makeSession(fake: ScriptedModelClient, mode: SafetyMode = 'ask') {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-agent-session-')));
  const redactor = createRedactor();
  const session = new AgentSession({
    workspaceRoot: root,
    stateDir: `${root}-state`,
    env: { PATH: process.env.PATH ?? '' },
    client: fake.withRetries(),
    mode,
    permissions: { allow: [], ask: [], deny: [] },
    agent: { sandbox: 'off', allowEnv: [], network: false, contextWindow: null },
    instructions: [],
    redact: (text) => redactor.redact(text).text,
    oyVersion: 'test',
    today: '2025-01-01',
  });
  return { session, root };
}

async function turn(
  session: AgentSession,
  prompt: string,
  interaction?: Interaction,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of session.runTurn(prompt, interaction ? { interaction } : {}))
    events.push(event);
  return events;
}

function offeredNames(fake: ScriptedModelClient, index: number): string[] {
  return (fake.calls[index]?.request.tools ?? []).map((tool) => tool.name);
}

describe('AgentSession', () => {
  it('without an interaction: no ask tool, a non-interactive prompt, and an ask becomes a refusal', async () => {
    const fake = new ScriptedModelClient({
      script: [
        reply.toolCall('write', { path: 'a.txt', content: 'x\n' }),
        reply.text('Could not.'),
      ],
    });
    const { session, root } = makeSession(fake);
    await session.start();
    const events = await turn(session, 'write a file');
    await session.dispose();
    expect(offeredNames(fake, 0)).not.toContain('ask');
    expect(fake.calls[0]!.request.system).toContain('This run is non-interactive');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'approval', decision: 'deny', outcome: 'denied' }),
    );
    expect(existsSync(path.join(root, 'a.txt'))).toBe(false);
  });

  it('with an interaction: the ask tool is offered, the prompt says the user is present, approvals are asked', async () => {
    const fake = new ScriptedModelClient({
      script: [reply.toolCall('write', { path: 'a.txt', content: 'x\n' }), reply.text('Done.')],
    });
    const { session, root } = makeSession(fake);
    const asked: string[] = [];
    const interaction: Interaction = {
      approve: async (request) => {
        asked.push(request.tool);
        return 'yes';
      },
      ask: async () => 'fine',
    };
    await session.start();
    await turn(session, 'write a file', interaction);
    await session.dispose();
    expect(offeredNames(fake, 0)).toContain('ask');
    expect(fake.calls[0]!.request.system).toContain('The user is present');
    expect(asked).toEqual(['write']);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('x\n');
  });

  it('counts user turns as turns and model calls as modelCalls, totals usage across turns, and undoes the last turn', async () => {
    const fake = new ScriptedModelClient({
      script: [
        reply.toolCall('write', { path: 'a.txt', content: 'one\n' }),
        reply.text('First.', { inputTokens: 100, outputTokens: 10 }),
        reply.toolCall('write', { path: 'a.txt', content: 'two\n' }),
        reply.text('Second.', { inputTokens: 200, outputTokens: 20 }),
      ],
    });
    const { session, root } = makeSession(fake, 'edit');
    await session.start();
    const first = await turn(session, 'one');
    const second = await turn(session, 'two');
    expect(first.at(-1)).toMatchObject({ type: 'done', modelCalls: 2 });
    expect(second.at(-1)).toMatchObject({ type: 'done', modelCalls: 2 });
    expect(session.state.turns).toBe(2);
    expect(session.modelCalls).toBe(4);
    // Two default-usage calls (10 in, 5 out each) and the two given.
    expect(session.state.usage).toMatchObject({ inputTokens: 320, outputTokens: 40 });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');

    const undone = await session.undo();
    expect(undone).toMatchObject({ kind: 'undo', turn: 2 });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(session.state.messages.some((m) => m.role === 'user' && m.text === 'two')).toBe(false);
    // The kept turn created a.txt: before the session it was absent.
    expect([...(await session.originals())]).toEqual([['a.txt', null]]);
    await session.dispose();
  });

  it('clear starts a new session with fresh totals; the old session file stays', async () => {
    const fake = new ScriptedModelClient({ script: [reply.text('Hi.'), reply.text('Again.')] });
    const { session } = makeSession(fake);
    await session.start();
    await turn(session, 'hello');
    const firstId = session.session?.id;
    await session.clear();
    expect(session.modelCalls).toBe(0);
    expect(session.state.messages).toEqual([]);
    await turn(session, 'hello again');
    expect(session.session?.id).toBeDefined();
    expect(session.session?.id).not.toBe(firstId);
    await session.dispose();
  });
});
