import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/** Committed secrets gate an offline run at their severity; a baseline or an `oy:allow` comment accepts them. */
let repo: string;
let token: string;
let cases = 0;

beforeEach(() => {
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-secrets-gate-')));
  token = makeToken();
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(path.join(repo, 'src', 'app.js'), 'export const add = (a, b) => a + b;\n');
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  cases++;
});

afterAll(() => console.log(`audit secrets gate: ${cases} cases`));

function makeToken(): string {
  return `ghp_${randomBytes(27).toString('base64url').replace(/[-_]/g, 'x').slice(0, 36)}`;
}

function commitKey(line: string): void {
  writeFileSync(path.join(repo, 'src', 'config.js'), `${line}\n`);
  commitAll(repo);
}

function audit(args: string[]) {
  return runOy(['audit', '--offline', ...args], { cwd: repo });
}

function readReport(file: string): AuditReport {
  return JSON.parse(readFileSync(path.join(repo, file), 'utf8')) as AuditReport;
}

describe('audit: the secrets gate', () => {
  it('an offline --fail-on high exits 3 on a committed key, naming it without its value', async () => {
    commitKey(`export const token = '${token}';`);
    const result = await audit(['--fail-on', 'high', '--format', 'json', '--out', 'out/r.json']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/^gate: `--fail-on high`: 1 finding .*src\/config\.js:1/m);
    expect(result.stderr + result.stdout).not.toContain(token);
    expect(readFileSync(path.join(repo, 'out/r.json'), 'utf8')).not.toContain(token);
  });

  it('control: without the key the same run exits 0', async () => {
    commitKey(`export const token = process.env.TOKEN;`);
    const result = await audit(['--fail-on', 'high']);
    expect(result.code, result.stderr).toBe(0);
  });

  it('a baseline written from the run accepts the key, and the report says so', async () => {
    commitKey(`export const token = '${token}';`);
    const first = await audit(['--fail-on', 'high', '--write-baseline', 'out/baseline.json']);
    expect(first.code, first.stderr).toBe(3);
    expect(readFileSync(path.join(repo, 'out/baseline.json'), 'utf8')).not.toContain(token);
    const second = await audit([
      ...['--fail-on', 'high', '--baseline', 'out/baseline.json'],
      ...['--format', 'json', '--out', 'out/r.json'],
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(readReport('out/r.json').suppressed).toEqual([
      { ruleId: 'oy/secret/github-token', path: 'src/config.js', line: 1, by: 'baseline' },
    ]);
    // A second key in the same file is not in the baseline: it gates.
    writeFileSync(
      path.join(repo, 'src', 'config.js'),
      `export const token = '${token}';\nexport const other = '${makeToken()}';\n`,
    );
    commitAll(repo, 'another key');
    const third = await audit(['--fail-on', 'high', '--baseline', 'out/baseline.json']);
    expect(third.code, third.stderr).toBe(3);
  });

  it.each([
    ['// oy:allow', `export const token = '${'TOKEN'}'; // oy:allow`],
    ['# oy:allow secret', `token = '${'TOKEN'}'  # oy:allow secret`],
  ])('an allow comment (%s) on the line accepts the key', async (_form, template) => {
    commitKey(template.replace('TOKEN', token));
    const result = await audit(['--fail-on', 'high', '--out', 'out/ISSUES.md']);
    expect(result.code, result.stderr).toBe(0);
    const markdown = readFileSync(path.join(repo, 'out/ISSUES.md'), 'utf8');
    expect(markdown).toMatch(/## Suppressed[\s\S]*src\/config\.js \| 1 \| `oy:allow` comment/);
    expect(markdown).not.toContain(token);
  });

  it('deterministic hints never gate and are never a SARIF error', async () => {
    commitKey(`const crypto = require('crypto'); const h = crypto.createHash('md5'); eval(input);`);
    const result = await audit(['--fail-on', 'info', '--format', 'sarif', '--out', 'out/r.sarif']);
    expect(result.code, result.stderr).toBe(0);
    const sarif = JSON.parse(readFileSync(path.join(repo, 'out/r.sarif'), 'utf8')) as {
      runs: { results: { level: string }[] }[];
    };
    const levels = sarif.runs[0]?.results.map((item) => item.level) ?? [];
    expect(levels.length).toBeGreaterThan(0);
    expect(levels).not.toContain('error');
  });
});
