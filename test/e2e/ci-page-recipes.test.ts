import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { commitAll } from '../support/git-fixture.js';
import { makeCiShims } from '../support/ci-shims.js';
import { PROJECT_ROOT } from '../support/run-oy.js';

/**
 * The CI page's recipes run as written: each code block marked `<!-- ci-recipe: name -->` is read from
 * docs/ci.md at test time and run against one fixture repository with the built CLI, `npx oy-audit@<version>`
 * and `oy` being shims for it, and the model served by the fake provider through the documented
 * variables. The recipes run in the page's order of need: the baseline first, since the others read it.
 */
const CI_PAGE = readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci.md'), 'utf8');
const ACTION = readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8');

function recipe(name: string): string {
  const match = new RegExp(
    `<!-- ci-recipe: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`,
  ).exec(CI_PAGE);
  if (!match?.[1]) throw new Error(`docs/ci.md has no ci-recipe ${name}`);
  return match[1];
}

/** `key: value` lines indented under `heading:` (comments dropped, quotes kept as written). */
function mapping(block: string, heading: string): Record<string, string> {
  const lines = block.split('\n');
  const start = lines.findIndex((line) => line.trim() === `${heading}:`);
  if (start < 0) throw new Error(`no ${heading}: block`);
  const indent = (line: string) => line.length - line.trimStart().length;
  const base = indent(lines[start] ?? '');
  const result: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') continue;
    if (indent(line) <= base) break;
    const pair = /^\s*([\w-]+):\s*(.*?)\s*(?:#.*)?$/.exec(line);
    if (pair?.[1]) result[pair[1]] = pair[2] ?? '';
  }
  return result;
}

/** `- item` lines under `heading:`. */
function list(block: string, heading: string): string[] {
  const after = block.slice(block.indexOf(`${heading}:`) + heading.length + 1).split('\n');
  const items: string[] = [];
  for (const line of after.slice(1)) {
    const item = /^\s*- (.*)$/.exec(line);
    if (!item) break;
    items.push(item[1] ?? '');
  }
  return items;
}

let repo: string;
let shims: string;
let fake: FakeProviderServer;
let cases = 0;
const FAKE_KEY = 'fake-anthropic-key';

beforeAll(async () => {
  fake = await startFakeProvider();
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-readme-ci-')));
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(path.join(repo, 'src', 'app.js'), 'export const add = (a, b) => a + b;\n');
  // A committed token, made at run time: the gate has something to fail on until it is baselined.
  const token = `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
  writeFileSync(path.join(repo, 'src', 'config.js'), `export const token = '${token}';\n`);
  commitAll(repo);
  shims = makeCiShims();
});

afterAll(async () => {
  await fake.close();
  console.log(`CI page recipes: ${cases} cases`);
});

interface ShellRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a script with bash as GitHub and GitLab do, with the shims first on PATH and a fresh cache. */
function runShell(script: string, env: Record<string, string>, shell = 'bash'): Promise<ShellRun> {
  cases++;
  const cache = mkdtempSync(path.join(tmpdir(), 'oy-readme-cache-'));
  return new Promise((resolve) => {
    execFile(
      shell,
      shell === 'bash'
        ? ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script]
        : ['-c', script],
      {
        cwd: repo,
        env: {
          PATH: `${shims}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
          HOME: process.env.HOME,
          XDG_CACHE_HOME: cache,
          NO_COLOR: '1',
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** Each model recipe is one review call on this small fixture; it is answered with no findings. */
function expectOneModelCall(before: number): void {
  expect(fake.modelCalls.length - before, 'the recipe reviewed with the model').toBe(1);
}

describe("the CI page's recipes, as written", () => {
  it('baseline: the first run writes .oy/baseline.json, the gated run passes with it', async () => {
    const lines = recipe('baseline')
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(2);
    // The shell-script recipe below is the control: without the baseline the same token fails the gate.
    const first = await runShell(lines[0]!, {});
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(path.join(repo, '.oy', 'baseline.json'))).toBe(true);
    const gated = await runShell(lines[1]!, {});
    expect(gated.code, gated.stderr).toBe(0);
    expect(gated.stderr).toMatch(/suppressed|accepted/);
  });

  it('github-action: the action with the documented inputs reviews with the model and passes', async () => {
    const workflow = recipe('github-action');
    expect(workflow).toMatch(/uses: \.\/\.github\/actions\/oy /);
    expect(workflow).toMatch(/actions: read/);
    // Inputs are YAML scalars: `'0.1'` reaches the action as 0.1.
    const inputs = Object.fromEntries(
      Object.entries(mapping(workflow, 'with')).map(([key, value]) => [
        key,
        value.replace(/^'(.*)'$/, '$1'),
      ]),
    );
    const env = mapping(workflow.slice(workflow.indexOf('uses: ./.github/actions/oy')), 'env');
    expect(env.ANTHROPIC_API_KEY).toBe('${{ secrets.ANTHROPIC_API_KEY }}');
    const script = auditStepScript();
    const output = path.join(mkdtempSync(path.join(tmpdir(), 'oy-readme-gh-')), 'out');
    writeFileSync(output, '');
    const inputEnv: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...actionDefaults(), ...inputs }))
      inputEnv[`OY_INPUT_${name.toUpperCase().replaceAll('-', '_')}`] = value;
    fake.enqueue({ kind: 'answer', text: JSON.stringify({ findings: [] }) });
    const before = fake.modelCalls.length;
    const run = await runShell(script, {
      ...inputEnv,
      GITHUB_ACTION_PATH: PROJECT_ROOT,
      GITHUB_OUTPUT: output,
      ANTHROPIC_API_KEY: FAKE_KEY,
      ANTHROPIC_BASE_URL: fakeProviderEnv(fake).ANTHROPIC_BASE_URL!,
    });
    expect(run.code, run.stderr).toBe(0);
    expectOneModelCall(before);
    expect(readFileSync(output, 'utf8')).toBe('report=./oy.sarif\nexit-code=0\n');
    expect(JSON.parse(readFileSync(path.join(repo, 'oy.sarif'), 'utf8'))).toMatchObject({
      version: '2.1.0',
    });
  });

  it('cli-workflow: the Audit step runs, and the upload condition finds oy.sarif', async () => {
    const workflow = recipe('cli-workflow');
    const step = workflow.slice(workflow.indexOf('- name: Audit'));
    const command = /^\s+run: (.*)$/m.exec(step)?.[1] ?? '';
    expect(command).toMatch(/^npx --yes oy-audit@[\d.]+ audit /);
    const env = mapping(step, 'env');
    expect(env).toEqual({
      OY_MODEL: 'anthropic::claude-haiku-4-5',
      ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}',
    });
    expect(workflow).toContain("if: always() && hashFiles('oy.sarif') != ''");
    fake.enqueue({ kind: 'answer', text: JSON.stringify({ findings: [] }) });
    const before = fake.modelCalls.length;
    const run = await runShell(command, {
      OY_MODEL: env.OY_MODEL!,
      ANTHROPIC_API_KEY: FAKE_KEY,
      ANTHROPIC_BASE_URL: fakeProviderEnv(fake).ANTHROPIC_BASE_URL!,
    });
    expect(run.code, run.stderr).toBe(0);
    expectOneModelCall(before);
    expect(existsSync(path.join(repo, 'oy.sarif'))).toBe(true);
  });

  it('gitlab: the script runs with the variables and leaves the artifact', async () => {
    const job = recipe('gitlab');
    const variables = mapping(job, 'variables');
    const script = list(job, 'script');
    const artifacts = list(job, 'paths');
    expect(script).toHaveLength(1);
    fake.enqueue({ kind: 'answer', text: JSON.stringify({ findings: [] }) });
    const before = fake.modelCalls.length;
    const run = await runShell(script.join('\n'), {
      ...variables,
      ANTHROPIC_API_KEY: FAKE_KEY,
      ANTHROPIC_BASE_URL: fakeProviderEnv(fake).ANTHROPIC_BASE_URL!,
    });
    expect(run.code, run.stderr).toBe(0);
    expectOneModelCall(before);
    expect(artifacts).toEqual(['oy-audit.json']);
    expect(JSON.parse(readFileSync(path.join(repo, 'oy-audit.json'), 'utf8'))).toMatchObject({
      mode: 'model',
    });
  });

  it('shell-script: tells a failed gate apart (the committed token, with no baseline)', async () => {
    const run = await runShell(recipe('shell-script'), {}, 'sh');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/^oy: findings at or above high, see ISSUES\.md$/m);
  });

  it('fork-pr: --offline contacts no model even with OY_MODEL and a key set', async () => {
    const command = recipe('fork-pr');
    const before = fake.modelCalls.length;
    const modelEnv = {
      OY_MODEL: 'anthropic::claude-haiku-4-5',
      ANTHROPIC_API_KEY: FAKE_KEY,
      ANTHROPIC_BASE_URL: fakeProviderEnv(fake).ANTHROPIC_BASE_URL!,
    };
    const run = await runShell(command, modelEnv);
    expect(run.code, run.stderr).toBe(0);
    expect(fake.modelCalls.length - before, 'no model call offline').toBe(0);
    // Control: the same command without --offline does call the model.
    fake.enqueue({ kind: 'answer', text: JSON.stringify({ findings: [] }) });
    const online = await runShell(command.replace(' --offline', ''), modelEnv);
    expect(online.code, online.stderr).toBe(0);
    expectOneModelCall(before);
  });
});

/** Each input's `default:` in action.yml, unquoted, as GitHub hands it to the step. */
function actionDefaults(): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const match of ACTION.matchAll(/^ {2}([\w-]+):\n(?: {4}.*\n)*? {4}default: (.*)$/gm))
    defaults[match[1]!] = (match[2] ?? '').replace(/^'(.*)'$/, '$1');
  return defaults;
}

/** The `run: |` script of action.yml's step with `id: audit`, unindented. */
function auditStepScript(): string {
  const lines = ACTION.split('\n');
  const id = lines.findIndex((line) => line.trim() === 'id: audit');
  const run = lines.findIndex((line, index) => index > id && line.trim() === 'run: |');
  const body: string[] = [];
  for (const line of lines.slice(run + 1)) {
    if (line.trim() !== '' && line.length - line.trimStart().length <= 6) break;
    body.push(line.slice(8));
  }
  return body.join('\n');
}
