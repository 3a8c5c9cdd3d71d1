import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';
import { createSecretFactory } from '../support/secret-factory.js';

/**
 * A pull request cannot vouch for itself: with `--diff <ref>`, the baseline is read as `<ref>`
 * has it, and baseline entries or `oy:allow` comments the change adds suppress nothing; each is
 * reported at the severity of what it would have hidden. The control: a team that accepts a
 * secret on the default branch first still passes.
 */
const secrets = createSecretFactory(randomInt(2 ** 31));
let cases = 0;
afterAll(() => console.log(`audit pr suppressions: ${cases} cases`));

let repo: string;
beforeEach(() => {
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-pr-')));
  write({ 'src/app.js': 'export const add = (a, b) => a + b;\n', '.gitignore': 'out/\n' });
  git('init', '-q');
  commit('main');
  cases++;
});

function git(...args: string[]): string {
  return execFileSync(
    'git',
    [
      ...['-c', 'user.name=oy-test', '-c', 'user.email=oy@test.invalid'],
      ...['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args],
    ],
    { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function write(files: Record<string, string>): void {
  for (const [relPath, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, relPath)), { recursive: true });
    writeFileSync(path.join(repo, relPath), content);
  }
}

function commit(message: string): void {
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', message);
}

function audit(args: string[], env: Record<string, string> = {}) {
  return runOy(['audit', ...args], { cwd: repo, env });
}

const gate = ['--fail-on', 'high', '--baseline', '.oy/baseline.json'];
const json = ['--format', 'json', '--out', 'out/r.json'];
const readReport = (): AuditReport =>
  JSON.parse(readFileSync(path.join(repo, 'out/r.json'), 'utf8')) as AuditReport;

describe('audit --diff: a pull request cannot vouch for itself', () => {
  it("through shards and oy report merge as in one run: the change's own baseline and allow comment suppress nothing", async () => {
    mkdirSync(path.join(repo, '.oy'));
    const empty = await audit(['--offline', '--write-baseline', '.oy/baseline.json']);
    expect(empty.code, empty.stderr).toBe(0);
    commit('an empty baseline on main');
    git('checkout', '-q', '-b', 'pr');
    const token = secrets.githubToken('p');
    const marked = secrets.githubToken('o');
    write({
      'src/config.js': `export const token = '${token}';\n`,
      'src/other.js': `export const other = '${marked}'; // oy:allow secret\n`,
    });
    commit('add two keys');
    const regenerated = await audit(['--offline', '--write-baseline', '.oy/baseline.json']);
    expect(regenerated.code, regenerated.stderr).toBe(0);
    commit('accept them');

    const whole = await audit(['--offline', '--diff', 'main', ...gate, ...json]);
    expect(whole.code, whole.stderr).toBe(3);
    const wholeReport = readReport();
    expect(wholeReport.refusedSuppressions.map((item) => item.by).sort()).toEqual([
      'allow-comment',
      'baseline',
    ]);
    const shards = ['out/s1.json', 'out/s2.json'];
    for (const [index, file] of shards.entries()) {
      const shard = await audit([
        '--offline',
        '--diff',
        'main',
        '--shard',
        `${index + 1}/2`,
        '--out',
        file,
      ]);
      expect(shard.code, shard.stderr).toBe(0);
    }
    const merged = await runOy(['report', 'merge', ...shards, ...gate, '--out', 'out/m.json'], {
      cwd: repo,
    });
    expect(merged.code, merged.stderr).toBe(3);
    const mergedReport = JSON.parse(
      readFileSync(path.join(repo, 'out/m.json'), 'utf8'),
    ) as AuditReport;
    expect(mergedReport.suppressed).toEqual(wholeReport.suppressed);
    expect(mergedReport.refusedSuppressions).toEqual(wholeReport.refusedSuppressions);
    const gates = (text: string) => text.split('\n').filter((line) => line.startsWith('gate: '));
    expect(gates(merged.stderr)).toEqual(gates(whole.stderr));
    for (const text of [merged.stdout, merged.stderr, JSON.stringify(mergedReport)])
      for (const value of [token, marked]) expect(text).not.toContain(value);
  });

  it('a baseline the pull request regenerates suppresses nothing, and the attempt is a high result', async () => {
    mkdirSync(path.join(repo, '.oy'));
    const empty = await audit(['--offline', '--write-baseline', '.oy/baseline.json']);
    expect(empty.code, empty.stderr).toBe(0);
    commit('an empty baseline on main');
    git('checkout', '-q', '-b', 'pr');
    const token = secrets.githubToken('p');
    write({ 'src/config.js': `export const token = '${token}';\n` });
    commit('add a key');
    // Only a committed secret is a result, so the baseline is written after the commit.
    const regenerated = await audit(['--offline', '--write-baseline', '.oy/baseline.json']);
    expect(regenerated.code, regenerated.stderr).toBe(0);
    commit('accept it');

    const result = await audit(['--offline', '--diff', 'main', ...gate, ...json]);
    expect(result.code, result.stderr).toBe(3);
    const report = readReport();
    expect(report.suppressed).toEqual([]);
    expect(report.refusedSuppressions).toEqual([
      {
        ruleId: 'oy/secret/github-token',
        path: 'src/config.js',
        line: 1,
        by: 'baseline',
        severity: 'high',
        title: 'Committed secret (github-token)',
      },
    ]);
    expect(report.configChanges).toEqual([{ path: '.oy/baseline.json' }]);
    // The secret, the refused suppression, and the same secret in the commit that added it.
    expect(result.stderr).toMatch(/^gate: `--fail-on high`: 3 findings at or above high/m);
    expect(result.stdout + result.stderr + JSON.stringify(report)).not.toContain(token);
    // Without --diff the work tree's baseline is the one read: that is the default branch's run.
    const plain = await audit(['--offline', ...gate]);
    expect(plain.code, plain.stderr).toBe(0);
  });

  it('an oy:allow comment the pull request adds suppresses nothing', async () => {
    git('checkout', '-q', '-b', 'pr');
    const token = secrets.githubToken('p');
    write({ 'src/config.js': `export const token = '${token}'; // oy:allow secret\n` });
    commit('add a key with an allow comment');
    const result = await audit(['--offline', '--diff', 'main', '--fail-on', 'high', ...json]);
    expect(result.code, result.stderr).toBe(3);
    const report = readReport();
    expect(report.suppressed).toEqual([]);
    expect(report.refusedSuppressions).toEqual([
      expect.objectContaining({
        path: 'src/config.js',
        line: 1,
        by: 'allow-comment',
        severity: 'high',
      }),
    ]);
    // Changing the value on a line the default branch allowed is adding a new one.
    git('checkout', '-q', 'main');
    write({ 'src/config.js': `export const token = '${token}'; // oy:allow secret\n` });
    commit('accept the key on main');
    git('checkout', '-q', '-b', 'pr2');
    const swapped = secrets.githubToken('p');
    write({ 'src/config.js': `export const token = '${swapped}'; // oy:allow secret\n` });
    commit('swap the key, keep the comment');
    const swap = await audit(['--offline', '--diff', 'main', '--fail-on', 'high', ...json]);
    expect(swap.code, swap.stderr).toBe(3);
    expect(readReport().refusedSuppressions.map((item) => item.by)).toEqual(['allow-comment']);
  });

  it('control: accepted on the default branch first, the same secrets pass a pull request that touches their files', async () => {
    const allowed = secrets.githubToken('p');
    const accepted = secrets.githubToken('p');
    write({
      'src/config.js': `export const token = '${allowed}'; // oy:allow secret\n`,
      'src/keys.js': `export const key = '${accepted}';\n`,
    });
    commit('a test key and a legacy key on main');
    const baseline = await audit(['--offline', '--write-baseline', '.oy/baseline.json']);
    expect(baseline.code, baseline.stderr).toBe(0);
    commit('accept them on main');
    git('checkout', '-q', '-b', 'pr');
    // The allowed line moves down unchanged; the other file gets a line of its own.
    write({
      'src/config.js': `// a comment\nexport const token = '${allowed}'; // oy:allow secret\n`,
      'src/keys.js': `export const key = '${accepted}';\nexport const other = 1;\n`,
    });
    commit('touch both files');
    const result = await audit(['--offline', '--diff', 'main', ...gate, ...json]);
    expect(result.code, result.stderr).toBe(0);
    const report = readReport();
    expect(report.refusedSuppressions).toEqual([]);
    expect(report.suppressed).toEqual([
      { ruleId: 'oy/secret/github-token', path: 'src/config.js', line: 2, by: 'allow-comment' },
      { ruleId: 'oy/secret/github-token', path: 'src/keys.js', line: 1, by: 'baseline' },
    ]);
  });

  it('--diff: a changed file the review skips for a reason the repository caused is a medium result', async () => {
    git('checkout', '-q', '-b', 'pr');
    write({
      'src/auth.py': '# @generated\ndef check(user):\n    return True\n',
      'vendor/lib.py': 'def helper():\n    return 1\n',
    });
    commit('add a generated file and a vendored one');
    const result = await audit(['--offline', '--diff', 'main', '--fail-on', 'medium', ...json]);
    expect(result.code, result.stderr).toBe(3);
    expect(readReport().unreviewedChanges).toEqual([
      { path: 'src/auth.py', reason: 'generated', detail: '@generated' },
      { path: 'vendor/lib.py', reason: 'default-dir', detail: 'vendor/' },
    ]);
    const high = await audit(['--offline', '--diff', 'main', '--fail-on', 'high']);
    expect(high.code, high.stderr).toBe(0);
  });
});

describe('audit --diff with a model: a baseline entry the change adds for a finding', () => {
  let fake: FakeProviderServer;
  let home: string;
  beforeEach(async () => {
    fake = await startFakeProvider();
    home = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-pr-home-')));
  });
  afterEach(async () => {
    await fake.close();
  });

  const EXEC_LINE = "  exec('convert ' + req.query.file, () => res.end('ok'));";
  const finding = {
    title: 'Command injection in convert',
    severity: 'critical',
    category: 'command-injection',
    path: 'src/convert.js',
    line: 3,
    end_line: 3,
    evidence: EXEC_LINE.trim(),
    impact: 'Remote code execution',
    preconditions: 'The caller controls the query',
    fix: 'Use execFile with an argument array',
    confidence: 0.9,
  };
  const answer = () => ({
    kind: 'answer' as const,
    text: JSON.stringify({ findings: [finding] }),
    usage: { inputTokens: 1000, outputTokens: 100 },
  });

  it('is refused at the finding’s severity; accepted on main first, it suppresses', async () => {
    const env = { ...fakeProviderEnv(fake), XDG_CACHE_HOME: path.join(home, 'cache') };
    const model = ['--model', 'anthropic::claude-haiku-4-5', '--no-cache'];
    git('checkout', '-q', '-b', 'pr');
    write({
      'src/convert.js': `const { exec } = require('child_process');\napp.get('/convert', (req, res) => {\n${EXEC_LINE}\n});\n`,
    });
    commit('add a route');
    fake.enqueue(answer());
    const written = await audit([...model, '--write-baseline', '.oy/baseline.json'], env);
    expect(written.code, written.stderr).toBe(0);
    commit('accept its finding');
    fake.enqueue(answer());
    const result = await audit([...model, '--diff', 'main', ...gate, ...json], env);
    expect(result.code, result.stderr).toBe(3);
    const report = readReport();
    expect(report.findings.map((each) => each.title)).toEqual([finding.title]);
    expect(report.refusedSuppressions).toEqual([
      {
        ruleId: 'oy/finding/command-injection',
        path: 'src/convert.js',
        line: 3,
        by: 'baseline',
        severity: 'critical',
        title: finding.title,
      },
    ]);
    // The team accepts it on the default branch; the pull request, rebased, passes.
    git('checkout', '-q', 'main');
    git('merge', '-q', '--ff-only', 'pr');
    git('checkout', '-q', '-b', 'pr2');
    write({
      'src/app.js': 'export const add = (a, b) => a + b + 0;\n',
      'src/convert.js': `// route\n${readFileSync(path.join(repo, 'src/convert.js'), 'utf8')}`,
    });
    commit('touch the route');
    fake.enqueue({
      ...answer(),
      text: JSON.stringify({ findings: [{ ...finding, line: 4, end_line: 4 }] }),
    });
    const rebased = await audit([...model, '--diff', 'main', ...gate, ...json], env);
    expect(rebased.code, rebased.stderr).toBe(0);
    fake.assertDone();
    expect(readReport().refusedSuppressions).toEqual([]);
    expect(readReport().suppressed).toEqual([
      { ruleId: 'oy/finding/command-injection', path: 'src/convert.js', line: 4, by: 'baseline' },
    ]);
  });
});
