import { cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';

/** After every audit, stderr says what was found, where, what was skipped, what the model cost, and where the report is. */
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'webapp');
const EXEC_LINE = "exec(`convert ${req.body.input} out.png`, () => res.end('ok'));";

let fake: FakeProviderServer;
let repo: string;
let cases = 0;

beforeAll(async () => {
  fake = await startFakeProvider();
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-speaks-')));
  cpSync(FIXTURE, repo, { recursive: true });
  commitAll(repo);
});
afterAll(async () => {
  await fake.close();
  console.log(`audit speaks: ${cases} cases`);
});

function audit(args: string[], cwd = repo) {
  cases++;
  return runOy(['audit', ...args], {
    cwd,
    env: { ...fakeProviderEnv(fake), XDG_CACHE_HOME: mkdtempSync(path.join(tmpdir(), 'oy-c-')) },
  });
}

/** The summary's lines: everything after the progress lines. */
function summaryOf(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter(
      (line) =>
        line !== '' && !/^(notice|collecting|reading|chunking|writing|reviewing)/.test(line),
    );
}

describe('the audit speaks', () => {
  it('offline: counts by severity, the top five by place, skips, no model, the report', async () => {
    const result = await audit(['--offline']);
    expect(result.code, result.stderr).toBe(0);
    const lines = summaryOf(result.stderr);
    expect(lines[0]).toMatch(
      /^1 secret \(1 high\) · \d+ hints \((?:\d+ (?:critical|high|medium|low|info)(?:, )?)+\)$/,
    );
    // No findings count offline: a run with no model can have none.
    expect(lines[0]).not.toMatch(/finding/);
    const top = lines.slice(1, 6);
    expect(top).toHaveLength(5);
    for (const line of top)
      expect(line).toMatch(/^ {2}(critical|high|medium|low|info) +\S+(:\d+)? {2}\S/);
    expect(lines[6]).toMatch(/^\d+ files reviewed; \d+ skipped \((\d+ [\w-]+(, )?)+\)$/);
    expect(lines[7]).toBe('model: none (offline: deterministic checks only)');
    expect(lines[8]).toBe('report: ISSUES.md');
    // stdout still carries only the report path.
    expect(result.stdout).toBe('ISSUES.md\n');
  });

  it('with a model: the findings by severity, the model, its calls and cost', async () => {
    fake.enqueue({
      kind: 'answer',
      text: JSON.stringify({
        findings: [
          {
            title: 'Command injection in convert',
            severity: 'critical',
            category: 'command-injection',
            path: 'src/routes/files.js',
            line: 13,
            end_line: 13,
            evidence: EXEC_LINE,
            impact: 'Remote code execution',
            preconditions: 'The caller controls the request body',
            fix: 'Use execFile with an argument array',
            confidence: 0.9,
          },
        ],
      }),
      usage: { inputTokens: 3000, outputTokens: 400 },
    });
    const result = await audit(['--model', 'anthropic::claude-haiku-4-5', '--out', 'model.md']);
    expect(result.code, result.stderr).toBe(0);
    const lines = summaryOf(result.stderr);
    expect(lines[0]).toMatch(/^1 finding \(1 critical\) · 1 secret \(1 high\) · /);
    expect(lines[1]).toBe('  critical src/routes/files.js:13  Command injection in convert');
    expect(lines).toContain('model: anthropic::claude-haiku-4-5, 1 call, $0.0050');
    expect(lines.at(-1)).toBe('report: model.md');
  });

  it('--quiet says nothing of it, and --json carries it as fields', async () => {
    const quiet = await audit(['--offline', '--quiet']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const json = await audit(['--offline', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const fields = JSON.parse(json.stdout) as {
      bySeverity: { secrets: { total: number; high: number }; hints: { total: number } };
      top: { severity: string; location: string; title: string }[];
      notReviewed: { skipped: Record<string, number> };
      modelCalls: number;
      model: string | null;
      hints: number;
    };
    expect(fields.bySeverity.secrets).toEqual({ total: 1, high: 1 });
    expect(fields.bySeverity.hints.total).toBe(fields.hints);
    expect(fields.top).toHaveLength(5);
    expect(fields.notReviewed.skipped.scope).toBeGreaterThan(0);
    expect(fields).toMatchObject({ modelCalls: 0, model: null });
    expect(summaryOf(json.stderr)).toEqual([]);
  });

  it('an untrusted title or path is shown inert', async () => {
    const hostile = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-speaks-hostile-')));
    writeFileSync(path.join(hostile, 'a\x1b[31mred.py'), 'import os\nos.system(input())\n');
    const result = await audit(['--offline'], hostile);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('\x1b[31m');
  });

  it('an empty folder warns and its report says nothing was found', async () => {
    const empty = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-speaks-empty-')));
    const result = await audit(['--offline'], empty);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^warning: no file was found to audit in /m);
    expect(readFileSync(path.join(empty, 'ISSUES.md'), 'utf8')).toMatch(
      /\| Result \| \*\*empty\*\*: no file was found to audit \|/,
    );
  });
});
