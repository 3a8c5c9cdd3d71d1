import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentState } from '../../../src/agent/loop/run-agent-loop.js';
import type { Compactor } from '../../../src/agent/loop/loop-options.js';
import { allTools, offeredTools } from '../../../src/agent/tools/all-tools.js';
import { createSession, loadSession } from '../../../src/agent/session/session-store.js';
import { EMPTY_USAGE } from '../../../src/providers/types.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import type { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { reply } from '../../fakes/script.js';
import {
  MODELS,
  clientFor,
  scriptModel,
  doneOf,
  eventsOf,
  makeWorkspace,
  runLoop,
  sentToolResults,
} from './loop-harness.js';

let fake: ScriptedModelClient;

describe('the policy at execution', () => {
  it('refuses a write in a non-interactive ask run, says how to allow it, and the run goes on', async () => {
    const root = makeWorkspace();
    fake = scriptModel([
      reply.toolCall('write', { path: 'notes.md', content: 'hi\n' }),
      reply.text('I could not write; here is the text instead.'),
    ]);
    const events = await runLoop(root, {
      client: clientFor(fake),
      prompt: 'Write notes.md.',
      tools: allTools(),
      offeredTools: offeredTools('ask', false),
      mode: 'ask',
    });
    expect(doneOf(events).stopReason).toBe('completed');
    expect(existsSync(path.join(root, 'notes.md'))).toBe(false);
    const [approval] = eventsOf(events, 'approval');
    expect(approval).toMatchObject({
      tool: 'write',
      decision: 'deny',
      outcome: 'denied',
      rule: 'mode:ask',
    });
    const content = sentToolResults(fake.modelCalls[1]!)[0]!.content;
    expect(content).toContain('non-interactive');
    expect(content).toContain('--mode edit');
    expect(content).toContain('Write(notes.md)');
  });

  it('refuses a write in plan mode even though plan mode never offered it', async () => {
    const root = makeWorkspace();
    fake = scriptModel([
      reply.toolCall('write', { path: 'x.txt', content: 'x' }),
      reply.text('ok'),
    ]);
    const events = await runLoop(root, {
      client: clientFor(fake),
      prompt: 'Write.',
      tools: allTools(),
      offeredTools: offeredTools('plan', false),
      mode: 'plan',
    });
    const offered = (fake.modelCalls[0]!.body as { tools: { name: string }[] }).tools.map(
      (tool) => tool.name,
    );
    expect(offered).not.toContain('write');
    expect(offered).not.toContain('ask');
    expect(offered).toContain('todo');
    expect(existsSync(path.join(root, 'x.txt'))).toBe(false);
    expect(eventsOf(events, 'approval')[0]).toMatchObject({ rule: 'mode:plan', outcome: 'denied' });
  });

  it('asks an interactive approver; "always" grants a session rule so the same call is not asked again', async () => {
    const root = makeWorkspace();
    const asked: string[] = [];
    fake = scriptModel([
      reply.toolCall('bash', { command: 'echo first' }),
      reply.toolCall('bash', { command: 'echo first' }),
      reply.toolCall('bash', { command: 'echo other' }),
      reply.text('done'),
    ]);
    const state = createAgentState();
    const answers = ['always', 'no'] as const;
    const events = await runLoop(root, {
      client: clientFor(fake),
      prompt: 'Run it.',
      tools: allTools(),
      mode: 'ask',
      state,
      interaction: {
        approve: async (request) => {
          asked.push(request.action.kind === 'bash' ? request.action.command : '');
          return answers[asked.length - 1] ?? 'no';
        },
        ask: async () => '',
      },
    });
    expect(asked).toEqual(['echo first', 'echo other']);
    expect(state.grants.list()).toEqual(['Bash(echo first)']);
    expect(
      eventsOf(events, 'approval').map((event) => [event.decision, event.outcome, event.rule]),
    ).toEqual([
      ['ask', 'allowed', 'Bash(echo first)'],
      ['allow', 'allowed', 'Bash(echo first)'],
      ['ask', 'denied', 'mode:ask'],
    ]);
    expect(sentToolResults(fake.modelCalls[3]!)[2]!.content).toContain('the user said no');
  });

  it('keeps a deny rule above a session grant', async () => {
    fake = scriptModel([reply.toolCall('bash', { command: 'echo hi' }), reply.text('done')]);
    const state = createAgentState();
    state.grants.grant({ kind: 'bash', tool: 'bash', command: 'echo hi' });
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Run.',
      tools: allTools(),
      state,
      rules: parsePermissionRules({ allow: [], ask: [], deny: ['Bash(echo:*)'] }),
    });
    expect(eventsOf(events, 'approval')[0]).toMatchObject({
      outcome: 'denied',
      rule: 'Bash(echo:*)',
    });
  });
});

describe('state across calls and turns', () => {
  it('puts the todo list into the next system prompt and saves it with the session', async () => {
    const root = makeWorkspace();
    const stateDir = makeWorkspace('oy-loop-state-');
    const todos = [{ id: '1', task: 'write the parser', status: 'in_progress' }];
    fake = scriptModel([reply.toolCall('todo', { todos }), reply.text('planned')]);
    const session = await createSession({
      stateDir,
      workspaceRoot: root,
      model: MODELS.anthropic,
      oyVersion: 'test',
    });
    const seen: number[] = [];
    await runLoop(root, {
      client: clientFor(fake),
      prompt: 'Plan.',
      tools: allTools(),
      session,
      system: (items) => {
        seen.push(items.length);
        return `todos: ${items.map((item) => item.task).join(', ')}`;
      },
    });
    expect(seen).toEqual([0, 1]);
    expect(JSON.stringify(fake.modelCalls[1]!.body)).toContain('todos: write the parser');
    const loaded = await loadSession(stateDir, root, 'latest');
    expect(loaded.todos).toEqual(todos);
  });

  it('sends the resumed history first, marks cache breakpoints, and saves each turn', async () => {
    const root = makeWorkspace();
    const stateDir = makeWorkspace('oy-loop-state-');
    fake = scriptModel([reply.text('first answer'), reply.text('second answer')]);
    const client = clientFor(fake);
    const session = await createSession({
      stateDir,
      workspaceRoot: root,
      model: MODELS.anthropic,
      oyVersion: 'test',
    });
    const state = createAgentState();
    await runLoop(root, { client, prompt: 'first question', state, session });
    await runLoop(root, { client, prompt: 'second question', state, session });
    const body = fake.modelCalls[1]!.body as { messages: unknown[]; system: unknown };
    expect(JSON.stringify(body.messages)).toMatch(/first question.*first answer.*second question/s);
    expect(JSON.stringify(body.system)).toContain('cache_control');
    expect(JSON.stringify(body.messages.at(-1))).toContain('cache_control');
    const loaded = await loadSession(stateDir, root, 'latest');
    expect(loaded.turns).toBe(2);
    expect(loaded.messages).toHaveLength(4);
  });

  it('compacts before a call when the compactor says so, and sends the compacted history', async () => {
    const root = makeWorkspace();
    const stateDir = makeWorkspace('oy-loop-state-');
    fake = scriptModel([reply.text('answer')]);
    const session = await createSession({
      stateDir,
      workspaceRoot: root,
      model: MODELS.anthropic,
      oyVersion: 'test',
    });
    const state = createAgentState({
      messages: [
        { role: 'user', text: 'old question with many words' },
        { role: 'assistant', text: 'old answer with many words', toolCalls: [] },
      ],
    });
    const compact: Compactor = async (input) => ({
      messages: [{ role: 'user', text: 'SUMMARY of earlier work' }, input.messages.at(-1)!],
      tokensBefore: 900,
      tokensAfter: 100,
      method: 'deterministic',
      usage: EMPTY_USAGE,
    });
    const events = await runLoop(root, {
      client: clientFor(fake),
      prompt: 'new question',
      state,
      session,
      compaction: { contextWindow: 1000, compact },
    });
    expect(eventsOf(events, 'compacted')).toEqual([
      { type: 'compacted', tokensBefore: 900, tokensAfter: 100, method: 'deterministic' },
    ]);
    const sent = JSON.stringify(fake.modelCalls[0]!.body);
    expect(sent).toContain('SUMMARY of earlier work');
    expect(sent).not.toContain('old answer');
    expect(readFileSync(session.file, 'utf8')).toContain('"type":"compacted"');
  });
});
