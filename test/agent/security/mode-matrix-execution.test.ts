import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools } from '../../../src/agent/tools/all-tools.js';
import type { AgentTool, TodoItem } from '../../../src/agent/tools/tool-types.js';
import { createAuthorizer } from '../../../src/agent/authorize/create-authorizer.js';
import type { Interaction } from '../../../src/agent/authorize/interaction.js';
import { createWebfetchTool } from '../../../src/agent/tools/webfetch-tool.js';
import type { SessionGrants } from '../../../src/agent/authorize/session-grants.js';
import {
  parsePermissionRule,
  type PermissionRule,
} from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import { startCountingServer, type CountingServer } from '../../safety/network/loopback-servers.js';
import { expectedOutcome, type RuleSetup, type ToolCase } from '../../safety/policy/mode-table.js';
import { makeToolContext } from '../tools/make-tool-context.js';

/**
 * The mode matrix again, enforced where the tools run (SECURITY.md "Plan mode changes nothing; ask means ask; deny wins"): each real tool is
 * called in every mode, interactive or not, under allow/ask/deny rules and session grants, and the
 * disk (or the loopback server, or the todo list) shows whether it ran.
 */

interface ExecutionCase {
  args: (server: CountingServer) => Record<string, unknown>;
  rule: string | null;
  isPlanRefused: boolean;
  /** Whether the call's effect is visible: the file changed, the server was hit, the answer came back. */
  hasRun: (
    workspace: string,
    server: CountingServer,
    todos: readonly TodoItem[],
    content: string,
  ) => boolean;
}

/** A name the test lookup resolves to the loopback server; only this test's hooks let it through. */
const FETCH_HOST = 'matrix.example.test';

const TODOS = [{ id: '1', task: 'check the matrix', status: 'pending' }];

const CASES: Record<ToolCase, ExecutionCase & { tool: string }> = {
  list: { tool: 'list', args: () => ({ path: 'src' }), rule: 'Read(src)', isPlanRefused: false, hasRun: (_w, _s, _t, c) => c.includes('a.ts') },
  read: { tool: 'read', args: () => ({ path: 'src/a.ts' }), rule: 'Read(src/**)', isPlanRefused: false, hasRun: (_w, _s, _t, c) => c.includes('hello') },
  search: { tool: 'search', args: () => ({ pattern: 'hello', path: 'src' }), rule: 'Read(src)', isPlanRefused: false, hasRun: (_w, _s, _t, c) => c.includes('a.ts') },
  todo: { tool: 'todo', args: () => ({ todos: TODOS }), rule: null, isPlanRefused: false, hasRun: (_w, _s, t) => t.length === 1 },
  'todo-persist': { tool: 'todo', args: () => ({ todos: TODOS, persist: true }), rule: 'Write(TODO.md)', isPlanRefused: true, hasRun: (w) => existsSync(path.join(w, 'TODO.md')) },
  write: { tool: 'write', args: () => ({ path: 'src/a.ts', content: 'written\n' }), rule: 'Write(src/**)', isPlanRefused: true, hasRun: (w) => read(w, 'src/a.ts') === 'written\n' },
  edit: { tool: 'edit', args: () => ({ path: 'src/a.ts', old_string: 'hello', new_string: 'edited' }), rule: 'Edit(src/**)', isPlanRefused: true, hasRun: (w) => read(w, 'src/a.ts').includes('edited') },
  replace: { tool: 'replace', args: () => ({ pattern: 'hello', replacement: 'replaced', path: 'src', mode: 'literal' }), rule: 'Edit(src/**)', isPlanRefused: true, hasRun: (w) => read(w, 'src/b/c.ts').includes('replaced') },
  bash: { tool: 'bash', args: () => ({ command: 'touch ran.txt' }), rule: 'Bash(touch ran.txt)', isPlanRefused: true, hasRun: (w) => existsSync(path.join(w, 'ran.txt')) },
  webfetch: { tool: 'webfetch', args: (s) => ({ url: `http://${FETCH_HOST}:${s.port}/page` }), rule: `WebFetch(domain:${FETCH_HOST})`, isPlanRefused: false, hasRun: (_w, s) => s.hits() > 0 },
  ask: { tool: 'ask', args: () => ({ question: 'Which one?', choices: ['a', 'b'] }), rule: null, isPlanRefused: false, hasRun: (_w, _s, _t, c) => c.includes('"answer"') },
}; // prettier-ignore

const MODES: SafetyMode[] = ['plan', 'ask', 'edit', 'auto'];
const SETUPS: RuleSetup[] = [
  'none',
  'allow',
  'ask',
  'deny',
  'grant',
  'deny+allow+grant',
  'ask+allow',
];

function read(workspace: string, relative: string): string {
  return readFileSync(path.join(workspace, relative), 'utf8');
}

// Only this test's webfetch resolves FETCH_HOST to the loopback server and lets it through.
const TOOLS = allTools().map((tool) =>
  tool.name === 'webfetch'
    ? createWebfetchTool({
        lookup: async () => [{ address: '127.0.0.1', family: 4 }],
        allowAddress: (address) => address === '127.0.0.1',
      })
    : tool,
);

function toolNamed(name: string): AgentTool {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool named ${name}`);
  return tool;
}

function rulesFor(rule: string | null, setup: RuleSetup) {
  const parsed = parsePermissionRule(rule ?? 'Bash(unrelated-command)');
  const has = (part: string) => setup.split('+').includes(part);
  const list = (part: string): PermissionRule[] => (has(part) ? [parsed] : []);
  return {
    rules: { allow: list('allow'), ask: list('ask'), deny: list('deny') },
    grants: list('grant'),
  };
}

/** Session grants holding exactly these rules, as "always" answers would have left them. */
function grantsOf(rules: PermissionRule[]): SessionGrants {
  const grants = { rules, list: () => rules.map((rule) => rule.text), grant: () => [] };
  return grants as unknown as SessionGrants;
}

let sandbox: string;
let server: CountingServer;
let cases = 0;

beforeAll(async () => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), 'oy-mode-exec-'));
  server = await startCountingServer('127.0.0.1', (_request, response) => {
    response.setHeader('content-type', 'text/plain');
    response.end('fetched');
  });
});

afterAll(async () => {
  await server.close();
  rmSync(sandbox, { recursive: true, force: true });
  console.log(`mode matrix at execution: ${cases} cases`);
});

function makeWorkspace(label: string): string {
  const workspace = path.join(sandbox, label.replace(/[^a-z0-9]+/giu, '-'));
  mkdirSync(path.join(workspace, 'src', 'b'), { recursive: true });
  writeFileSync(path.join(workspace, 'src', 'a.ts'), 'export const greeting = "hello";\n');
  writeFileSync(path.join(workspace, 'src', 'b', 'c.ts'), 'export const other = "hello";\n');
  return workspace;
}

describe('mode matrix at execution', () => {
  for (const toolCase of Object.keys(CASES) as ToolCase[]) {
    const spec = CASES[toolCase];
    for (const mode of MODES) {
      for (const isInteractive of [true, false]) {
        for (const setup of spec.rule === null ? (['none'] as RuleSetup[]) : SETUPS) {
          const want = expectedOutcome(toolCase, mode, isInteractive, setup, spec.rule !== null, spec.isPlanRefused);
          const label = `${toolCase} / ${mode} / ${isInteractive ? 'interactive' : 'non-interactive'} / ${setup} -> ${want}`;
          it(label, async () => {
            cases += 1;
            const workspace = makeWorkspace(label);
            const hitsBefore = server.hits();
            const { rules, grants } = rulesFor(spec.rule, setup);
            let asked = 0;
            // An interactive user says yes to every ask here; counting asks shows the policy asked.
            const interaction: Interaction = {
              approve: async () => {
                asked += 1;
                return 'yes';
              },
              ask: async () => 'a',
            };
            const context = makeToolContext(workspace, {
              overrides: {
                authorize: createAuthorizer({
                  redact: (text) => text,
                  mode,
                  rules,
                  grants: grantsOf(grants),
                  workspaceRoot: workspace,
                  ...(isInteractive ? { interaction } : {}),
                  onApproval: () => undefined,
                }),
                ...(isInteractive ? { interaction } : {}),
              },
            });
            const result = await toolNamed(spec.tool).run(spec.args(server), context);
            const counting = { ...server, hits: () => server.hits() - hitsBefore };
            const ran = spec.hasRun(workspace, counting, context.todos.get(), result.content);
            expect(ran).toBe(want !== 'deny');
            expect(asked > 0).toBe(want === 'ask');
            expect(result.ok).toBe(want !== 'deny');
            if (want === 'deny') expect(JSON.parse(result.content).error.length).toBeGreaterThan(10);
          });
        }
      }
    }
  }
}); // prettier-ignore

it('covers every tool in every mode, interactive or not', () => {
  const toolCases = Object.keys(CASES).length;
  expect(toolCases).toBe(11);
  expect(new Set(Object.values(CASES).map((c) => c.tool)).size).toBe(10);
});
