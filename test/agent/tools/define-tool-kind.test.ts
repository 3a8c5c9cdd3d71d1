import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_TOOLS } from '../../../src/agent/tools/all-tools.js';
import { defineTool } from '../../../src/agent/tools/define-tool.js';
import type { AgentToolName } from '../../../src/agent/tools/tool-types.js';
import type { ToolAction, ToolKind } from '../../../src/safety/policy/tool-action.js';
import { makeToolContext } from './make-tool-context.js';

/**
 * Each tool declares its kind, and the action it shows the policy carries a kind too: defineTool
 * refuses, before the policy is asked, an action milder than the declared kind or one naming another
 * tool, so a tool cannot be judged as something it is not.
 */

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-define-kind-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A tool declared `kind` that shows the policy `action`; counts policy questions and executions. */
async function runDeclared(name: AgentToolName, kind: ToolKind, action: ToolAction) {
  let executed = 0;
  const tool = defineTool({
    name,
    kind,
    description: 'Shows the policy the action it was given.',
    schema: z.object({}),
    // The cast is the point: a tool that lies about its action, which the types would stop.
    intend: () => ({ action: action as never, target: null }),
    plan: () => ({ data: null }),
    execute: async () => {
      executed += 1;
      return {};
    },
  });
  const context = makeToolContext(root, { mode: 'auto' });
  const result = await tool.run({}, context);
  return { result, asked: context.approvals.length, executed };
}

describe('a tool declares its kind', () => {
  it('the registry: every built-in tool has the kind the mode table offers and judges it by', () => {
    expect(Object.fromEntries(ALL_TOOLS.map((tool) => [tool.name, tool.kind]))).toEqual({
      list: 'read',
      read: 'read',
      search: 'read',
      write: 'write',
      edit: 'write',
      replace: 'write',
      bash: 'bash',
      webfetch: 'webfetch',
      todo: 'read',
      ask: 'ask',
    });
  });

  it('control: an action of the declared kind and name is judged and runs', async () => {
    const run = await runDeclared('bash', 'bash', { kind: 'bash', tool: 'bash', command: 'true' });
    expect(run).toMatchObject({ asked: 1, executed: 1, result: { ok: true } });
  });

  it('a read tool whose call writes is judged as a write (stricter), as todo with persist', async () => {
    const run = await runDeclared('todo', 'read', {
      kind: 'write',
      tool: 'todo',
      path: 'TODO.md',
    });
    expect(run).toMatchObject({ asked: 1, executed: 1 });
  });

  const milder: [string, AgentToolName, ToolKind, ToolAction][] = [
    ['a bash tool showing a read', 'bash', 'bash', { kind: 'read', tool: 'read', path: 'a' }],
    ['a write tool showing a read', 'write', 'write', { kind: 'read', tool: 'read', path: 'a' }],
    ['a write tool showing the todo list', 'edit', 'write', { kind: 'read', tool: 'todo' }],
    ['an MCP tool showing a read', 'mcp__s__t', 'mcp', { kind: 'read', tool: 'list', path: '.' }],
    ['a webfetch tool showing ask', 'webfetch', 'webfetch', { kind: 'ask', tool: 'ask' }],
    [
      'an edit tool showing a write (edit reads first: Read rules hold for it)',
      'edit',
      'write',
      { kind: 'write', tool: 'write', path: 'a' },
    ],
    [
      'a read tool showing a list (another tool)',
      'read',
      'read',
      { kind: 'read', tool: 'list', path: '.' },
    ],
  ];
  it.each(milder)('refuses %s before the policy is asked', async (_name, tool, kind, action) => {
    const run = await runDeclared(tool, kind, action);
    expect(run.asked).toBe(0);
    expect(run.executed).toBe(0);
    expect(run.result.ok).toBe(false);
    expect(JSON.parse(run.result.content).error).toMatch(/declared kind .* nothing was done/u);
  });
});
