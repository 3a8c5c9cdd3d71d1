import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { AgentEvent } from '../../../src/agent/events.js';
import { createAgentState, runAgentLoop } from '../../../src/agent/loop/run-agent-loop.js';
import type { AgentLoopOptions } from '../../../src/agent/loop/loop-options.js';
import { defineTool } from '../../../src/agent/tools/define-tool.js';
import type { AgentTool } from '../../../src/agent/tools/tool-types.js';
import { createModelClient } from '../../../src/providers/create-model-client.js';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import type { ModelClient } from '../../../src/providers/types.js';
import type { FakeProviderServer } from '../../fakes/fake-provider-server.js';
import { fakeProviderEnv } from '../../fakes/start-fake-provider.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import { createRedactor } from '../../../src/safety/redact/index.js';
import type { ScriptedReply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';

/** One Anthropic and one OpenAI-compatible model, both priced in the table. */
export const MODELS = {
  anthropic: 'anthropic::claude-haiku-4-5',
  openai: 'openai::gpt-4o',
} as const;

export function makeWorkspace(prefix = 'oy-loop-'): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/** A real client against the HTTP fake (provider tests), retries quick so fault tests stay fast. */
export function httpClientFor(fake: FakeProviderServer, model: string): Promise<ModelClient> {
  return createModelClient(parseModelId(model), fakeProviderEnv(fake), {
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
}

/** A strict in-process model for this test: the script, then every request recorded in wire form. */
export function scriptModel(
  script: ScriptedReply[],
  model: string = MODELS.anthropic,
): ScriptedModelClient {
  return new ScriptedModelClient({ script, model });
}

/** The client the loop gets: the scripted model inside the production retry wrapper (quick waits). */
export function clientFor(fake: ScriptedModelClient): ModelClient {
  return fake.withRetries();
}

/** A tool that echoes its argument and counts its runs (a read-category tool: `list`). */
export function makeEchoTool(): { tool: AgentTool; runs: unknown[] } {
  const runs: unknown[] = [];
  const tool = defineTool({
    name: 'list',
    kind: 'read',
    description: 'Echoes the text it is given.',
    schema: z.object({ text: z.string() }),
    intend: () => ({ action: { kind: 'read', tool: 'list', path: '.' }, target: null }),
    plan: (args) => ({ data: args }),
    execute: async (args) => {
      runs.push(args);
      return { echoed: args.text };
    },
  });
  return { tool, runs };
}

export type LoopOverrides = Partial<AgentLoopOptions> & Pick<AgentLoopOptions, 'client' | 'prompt'>;

/** Runs the loop with test defaults (auto mode, no rules, a fixed system prompt) and collects its events. */
export async function runLoop(root: string, overrides: LoopOverrides): Promise<AgentEvent[]> {
  const redactor = createRedactor();
  const events: AgentEvent[] = [];
  for await (const event of runAgentLoop({
    system: () => 'You are a test agent.',
    state: createAgentState(),
    tools: [],
    workspaceRoot: root,
    mode: 'auto',
    rules: parsePermissionRules({ allow: [], ask: [], deny: [] }),
    redact: (text) => redactor.redact(text).text,
    shell: { sandbox: 'off', allowedEnvNames: [], baseEnv: process.env, allowNetwork: false },
    ...overrides,
  })) {
    events.push(event);
  }
  return events;
}

export function doneOf(events: readonly AgentEvent[]): Extract<AgentEvent, { type: 'done' }> {
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error(`the last event is not done: ${JSON.stringify(done)}`);
  return done;
}

export function eventsOf<T extends AgentEvent['type']>(
  events: readonly AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}

/** Tool results a request sent back, as `{id, content}`, for either wire protocol. */
export function sentToolResults(request: { body: unknown }): { id: string; content: string }[] {
  const body = request.body as { messages?: Record<string, unknown>[] };
  const results: { id: string; content: string }[] = [];
  for (const message of body.messages ?? []) {
    if (message.role === 'tool') {
      results.push({ id: String(message.tool_call_id), content: stringify(message.content) });
    }
    if (Array.isArray(message.content)) {
      for (const block of message.content as Record<string, unknown>[]) {
        if (block.type === 'tool_result')
          results.push({ id: String(block.tool_use_id), content: stringify(block.content) });
      }
    }
  }
  return results;
}

function stringify(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => String((part as { text?: unknown }).text ?? '')).join('');
  return JSON.stringify(content);
}
