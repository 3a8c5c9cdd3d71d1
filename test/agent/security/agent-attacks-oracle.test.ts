import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer } from '../../../src/agent/authorize/create-authorizer.js';
import { SessionGrants } from '../../../src/agent/authorize/session-grants.js';
import { allTools } from '../../../src/agent/tools/all-tools.js';
import type { AgentTool, ApprovalRequest } from '../../../src/agent/tools/tool-types.js';
import { parsePermissionRules } from '../../../src/safety/policy/permission-rule.js';
import type { SafetyMode } from '../../../src/safety/policy/safety-mode.js';
import { makeToolContext, type TestToolContext } from '../tools/make-tool-context.js';

/**
 * The content oracle (SECURITY.md "Authorization comes before content"): a prompt-injected model guesses a secret in `.env`
 * character by character through tools whose answer would differ when a guess is right
 * (edit's "not found", replace's "no match", write's diff, search's hits). Under every refusing
 * configuration each result must be identical byte for byte across guesses and across two files
 * holding different secrets; the control shows the same attacker does recover a secret where the
 * tools are allowed to read the file, so the check can fail.
 */

const ALPHABET = '0123456789abcdef';
/** At least this many guesses per configuration, over all probes (each probe has its own budget). */
const MIN_GUESSES_PER_CONFIGURATION = 200;

interface Configuration {
  name: string;
  mode: SafetyMode;
  deny: string[];
  /** Chat: an approver who answers no, and sees each preview. */
  isInteractive: boolean;
}

const CONFIGURATIONS: Configuration[] = [
  { name: 'plan mode', mode: 'plan', deny: [], isInteractive: false },
  {
    name: 'ask mode (oy run) with Read, Edit and Write of .env denied',
    mode: 'ask',
    deny: ['Read(.env)', 'Edit(.env)', 'Write(.env)'],
    isInteractive: false,
  },
  {
    name: 'edit mode with Read(.env) denied',
    mode: 'edit',
    deny: ['Read(.env)'],
    isInteractive: false,
  },
  { name: 'auto mode (oy run), no rules', mode: 'auto', deny: [], isInteractive: false },
  { name: 'chat in ask mode, the user says no', mode: 'ask', deny: [], isInteractive: true },
];

interface Probe {
  name: string;
  tool: string;
  /** Guesses per file; search and replace start a worker per call, so they get fewer. */
  budget: number;
  args: (guess: string) => Record<string, unknown>;
}

const PROBES: Probe[] = [
  {
    name: 'edit old_string',
    budget: 80,
    tool: 'edit',
    args: (guess) => ({
      path: '.env',
      old_string: `API_TOKEN=${guess}`,
      new_string: 'API_TOKEN=x',
    }),
  },
  {
    name: 'replace regex on .env',
    budget: 50,
    tool: 'replace',
    args: (guess) => ({ path: '.env', pattern: `API_TOKEN=${guess}[0-9a-f]*`, replacement: 'x' }),
  },
  {
    name: 'replace regex over the workspace',
    budget: 24,
    tool: 'replace',
    args: (guess) => ({
      path: '.',
      pattern: `API_TOKEN=${guess}`,
      replacement: 'x',
      glob: '.env*',
    }),
  },
  {
    name: 'write diff',
    budget: 80,
    tool: 'write',
    args: (guess) => ({ path: '.env', content: `API_TOKEN=${guess}\nDEBUG=1\n` }),
  },
  {
    name: 'read with a guessed offset',
    tool: 'read',
    budget: 20,
    args: (guess) => ({ path: '.env', offset: 1 + (guess.length % 3), limit: 1 }),
  },
  {
    name: 'search',
    budget: 10,
    tool: 'search',
    args: (guess) => ({ pattern: `API_TOKEN=${guess}`, path: '.', mode: 'literal' }),
  },
];

let sandbox: string;
let cases = 0;
let guesses = 0;

beforeAll(() => {
  sandbox = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-oracle-')));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
  console.log(`content oracle suite: ${cases} cases (${guesses} adaptive guesses)`);
});

function toolNamed(name: string): AgentTool {
  const tool = allTools().find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool named ${name}`);
  return tool;
}

function makeWorkspace(label: string, fileName: string, secret: string): string {
  const workspace = path.join(
    sandbox,
    `${label.replace(/[^a-z0-9]+/giu, '-')}-${secret.slice(0, 6)}`,
  );
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  writeFileSync(path.join(workspace, fileName), envText(secret));
  writeFileSync(path.join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
  return workspace;
}

function envText(secret: string): string {
  return `API_TOKEN=${secret}\nDEBUG=1\n`;
}

function contextFor(
  workspace: string,
  configuration: Configuration,
  previews: ApprovalRequest[],
): TestToolContext {
  const base = makeToolContext(workspace, { mode: configuration.mode, deny: configuration.deny });
  if (!configuration.isInteractive) return base;
  const authorize = createAuthorizer({
    redact: (text) => text,
    mode: configuration.mode,
    rules: parsePermissionRules({ allow: [], ask: [], deny: configuration.deny }),
    grants: new SessionGrants(),
    workspaceRoot: workspace,
    interaction: {
      approve: async (request) => {
        previews.push(request);
        return 'no';
      },
      ask: async () => '',
    },
    onApproval: () => undefined,
  });
  return { ...base, authorize };
}

/**
 * An adaptive attacker: for each next character it probes a guess known to be wrong, then each
 * character of the alphabet, and keeps the first whose answer differs; learning nothing, it
 * guesses on, so every call of the budget is spent.
 */
async function attack(
  call: (guess: string) => Promise<string>,
  budget: number,
  length: number,
): Promise<{ results: string[]; recovered: string }> {
  const results: string[] = [];
  let known = '';
  while (results.length < budget && known.length < length) {
    const wrong = await call(`${known}!`);
    results.push(wrong);
    let found: string | undefined;
    for (const character of ALPHABET) {
      if (results.length >= budget) break;
      const answer = await call(known + character);
      results.push(answer);
      if (answer !== wrong) {
        found = character;
        break;
      }
    }
    known += found ?? ALPHABET[known.length % ALPHABET.length];
  }
  guesses += results.length;
  return { results, recovered: known };
}

it('spends enough guesses on every configuration', () => {
  cases += 1;
  const perConfiguration = PROBES.reduce((sum, probe) => sum + probe.budget, 0);
  expect(perConfiguration).toBeGreaterThanOrEqual(MIN_GUESSES_PER_CONFIGURATION);
});

describe('the content oracle is closed', () => {
  for (const configuration of CONFIGURATIONS) {
    for (const probe of PROBES) {
      it(`${configuration.name}: ${probe.name} answers the same whatever the guess and the file`, async () => {
        cases += 1;
        const secrets = [randomBytes(10).toString('hex'), randomBytes(10).toString('hex')];
        const runs = [];
        for (const secret of secrets) {
          const workspace = makeWorkspace(`${configuration.name}-${probe.name}`, '.env', secret);
          const previews: ApprovalRequest[] = [];
          const context = contextFor(workspace, configuration, previews);
          const tool = toolNamed(probe.tool);
          const run = await attack(
            async (guess) => (await tool.run(probe.args(guess), context)).content,
            probe.budget,
            secret.length,
          );
          // Nothing changed the file, and nothing anyone saw held any part of the value.
          expect(readFileSync(path.join(workspace, '.env'), 'utf8')).toBe(envText(secret));
          for (const text of [...run.results, ...previews.map((p) => p.preview ?? '')])
            expect(text).not.toContain(secret.slice(0, 6));
          runs.push({ ...run, previews });
        }
        const [first, second] = runs;
        expect(first?.results).toHaveLength(probe.budget);
        expect(new Set(first?.results).size).toBe(1);
        expect(second?.results).toEqual(first?.results);
        expect(first?.recovered).not.toBe(secrets[0]);
      });
    }
  }
});

describe('control: the same attacker reads a file the tools may read', () => {
  it('recovers a run-time secret from a plain file through edit in edit mode', async () => {
    cases += 1;
    const secret = randomBytes(4).toString('hex');
    const workspace = makeWorkspace('control', 'notes.txt', secret);
    const context = makeToolContext(workspace, { mode: 'edit' });
    const run = await attack(
      async (guess) => {
        const result = await toolNamed('edit').run(
          { path: 'notes.txt', old_string: `API_TOKEN=${guess}`, new_string: 'API_TOKEN=x' },
          context,
        );
        // A right guess changes the file; put it back so the next guess sees the same file.
        writeFileSync(path.join(workspace, 'notes.txt'), envText(secret));
        return JSON.parse(result.content).ok === true ? 'found' : result.content;
      },
      ALPHABET.length * secret.length * 2,
      secret.length,
    );
    expect(run.recovered).toBe(secret);
    expect(new Set(run.results).size).toBeGreaterThan(1);
  });

  it('recovers it through replace in edit mode, with the regex oracle', async () => {
    cases += 1;
    const secret = randomBytes(3).toString('hex');
    const workspace = makeWorkspace('control-replace', 'notes.txt', secret);
    const context = makeToolContext(workspace, { mode: 'edit' });
    const run = await attack(
      async (guess) => {
        const result = await toolNamed('replace').run(
          {
            path: 'notes.txt',
            pattern: `API_TOKEN=${guess}`,
            replacement: 'API_TOKEN=x',
            mode: 'literal',
          },
          context,
        );
        writeFileSync(path.join(workspace, 'notes.txt'), envText(secret));
        return JSON.parse(result.content).ok === true ? 'found' : result.content;
      },
      ALPHABET.length * secret.length * 2,
      secret.length,
    );
    expect(run.recovered).toBe(secret);
  });
});
