import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentState } from '../../../src/agent/loop/run-agent-loop.js';
import { defineTool } from '../../../src/agent/tools/define-tool.js';
import { createSession, loadSession } from '../../../src/agent/session/session-store.js';
import type { AgentEvent } from '../../../src/agent/events.js';
import type { ScriptedModelClient } from '../../fakes/scripted-model-client.js';
import { reply } from '../../fakes/script.js';
import {
  MODELS,
  clientFor,
  scriptModel,
  doneOf,
  eventsOf,
  makeEchoTool,
  makeWorkspace,
  runLoop,
  sentToolResults,
} from './loop-harness.js';
import { runAgentLoop } from '../../../src/agent/loop/run-agent-loop.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';

let fake: ScriptedModelClient;

describe('tool calls the loop cannot run as asked', () => {
  it('answers an unknown tool name with a failed result and goes on', async () => {
    const { tool } = makeEchoTool();
    fake = scriptModel([
      reply.toolCall('frobnicate', { x: 1 }),
      reply.text('Sorry, I will use list.'),
    ]);
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Go.',
      tools: [tool],
    });
    expect(doneOf(events).stopReason).toBe('completed');
    const [result] = sentToolResults(fake.modelCalls[1]!);
    expect(result?.content).toContain('unknown tool \\"frobnicate\\"; the tools are: list');
    expect(eventsOf(events, 'tool_result')[0]).toMatchObject({ ok: false, tool: 'frobnicate' });
  });

  it('answers arguments that are not JSON (OpenAI passes them on raw) with a failed result', async () => {
    const { tool, runs } = makeEchoTool();
    fake = scriptModel(
      [reply.toolCall('list', '{"text": "unterminated'), reply.text('I will fix my JSON.')],
      MODELS.openai,
    );
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Go.',
      tools: [tool],
    });
    expect(doneOf(events).stopReason).toBe('completed');
    expect(runs).toHaveLength(0);
    expect(sentToolResults(fake.modelCalls[1]!)[0]?.content).toContain('not valid JSON');
  });

  it('answers arguments that break the schema with the validation message', async () => {
    const { tool, runs } = makeEchoTool();
    fake = scriptModel([reply.toolCall('list', { text: 42 }), reply.text('ok')]);
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Go.',
      tools: [tool],
    });
    expect(doneOf(events).stopReason).toBe('completed');
    expect(runs).toHaveLength(0);
    expect(sentToolResults(fake.modelCalls[1]!)[0]?.content).toContain('invalid arguments: text');
  });
});

describe('failures and cancellation', () => {
  it('reports a provider failure after retries as an error event, then done with stopReason error', async () => {
    fake = scriptModel([
      reply.serverError(),
      reply.serverError(),
      reply.serverError(),
      reply.serverError(),
    ]);
    const events = await runLoop(makeWorkspace(), {
      client: clientFor(fake),
      prompt: 'Go.',
    });
    fake.assertDone();
    const [error] = eventsOf(events, 'error');
    expect(error).toMatchObject({ kind: 'server' });
    expect(error!.message).toContain('anthropic::claude-haiku-4-5');
    expect(doneOf(events)).toMatchObject({ stopReason: 'error', modelCalls: 0 });
  });

  it('does not retry a bad request, and keeps the session a valid transcript', async () => {
    const root = makeWorkspace();
    const stateDir = makeWorkspace('oy-loop-state-');
    fake = scriptModel([reply.error(400)]);
    const session = await createSession({
      stateDir,
      workspaceRoot: root,
      model: MODELS.anthropic,
      oyVersion: 'test',
    });
    const events = await runLoop(root, {
      client: clientFor(fake),
      prompt: 'Go.',
      session,
    });
    fake.assertDone();
    expect(doneOf(events)).toMatchObject({ stopReason: 'error', sessionId: session.id });
    const loaded = await loadSession(stateDir, root, 'latest');
    expect(loaded.turns).toBe(1);
    expect(loaded.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('stops at once when aborted mid-stream: the request is dropped and done says cancelled', async () => {
    const root = makeWorkspace();
    const stateDir = makeWorkspace('oy-loop-state-');
    fake = scriptModel([
      {
        kind: 'answer',
        textChunks: ['The first words', ' and then', ' much more', ' that never comes'],
        eventDelayMs: 400,
      },
    ]);
    const session = await createSession({
      stateDir,
      workspaceRoot: root,
      model: MODELS.anthropic,
      oyVersion: 'test',
    });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const redact = (text: string) => text;
    for await (const event of runAgentLoop({
      client: clientFor(fake),
      system: () => 'test',
      prompt: 'Talk.',
      state: createAgentState(),
      tools: [],
      workspaceRoot: root,
      mode: 'auto',
      rules: parsePermissionRules({ allow: [], ask: [], deny: [] }),
      redact,
      shell: { sandbox: 'off', allowedEnvNames: [], baseEnv: {}, allowNetwork: false },
      session,
      signal: controller.signal,
    })) {
      events.push(event);
      if (event.type === 'text_delta') controller.abort();
    }
    const done = doneOf(events);
    expect(done.stopReason).toBe('cancelled');
    expect(
      eventsOf(events, 'text_delta')
        .map((event) => event.text)
        .join(''),
    ).not.toContain('never comes');
    expect(eventsOf(events, 'error')).toHaveLength(0);
    const loaded = await loadSession(stateDir, root, 'latest');
    expect(loaded.messages.at(-1)).toMatchObject({ role: 'assistant' });
    expect((loaded.messages.at(-1) as { text: string }).text).toContain('interrupted');
  });

  it('aborts a running tool through its signal, and gives every call of the answer a result', async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: 'list',
      kind: 'read',
      description: 'Waits until aborted.',
      schema: z.object({}),
      intend: () => ({ action: { kind: 'read', tool: 'list', path: '.' }, target: null }),
      plan: () => ({ data: null }),
      execute: (_args, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve({ stopped: true });
          });
        }),
    });
    fake = scriptModel([
      {
        kind: 'answer',
        toolCalls: [
          { id: 'toolu_a', name: 'list', arguments: {} },
          { id: 'toolu_b', name: 'list', arguments: {} },
        ],
      },
    ]);
    const controller = new AbortController();
    const state = createAgentState();
    const events: AgentEvent[] = [];
    const redact = (text: string) => text;
    for await (const event of runAgentLoop({
      client: clientFor(fake),
      system: () => 'test',
      prompt: 'Wait.',
      state,
      tools: [slow],
      workspaceRoot: makeWorkspace(),
      mode: 'auto',
      rules: parsePermissionRules({ allow: [], ask: [], deny: [] }),
      redact,
      shell: { sandbox: 'off', allowedEnvNames: [], baseEnv: {}, allowNetwork: false },
      signal: controller.signal,
    })) {
      events.push(event);
      if (event.type === 'approval') setTimeout(() => controller.abort(), 50);
    }
    fake.assertDone();
    expect(sawAbort).toBe(true);
    expect(doneOf(events).stopReason).toBe('cancelled');
    const toolMessage = state.messages.find((message) => message.role === 'tool');
    expect(
      toolMessage?.role === 'tool' && toolMessage.results.map((result) => result.toolCallId),
    ).toEqual(['toolu_a', 'toolu_b']);
    expect(JSON.stringify(toolMessage)).toContain('not run: cancelled by the user');
  });
});
