import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply, type ScriptedAnswer } from '../fakes/script.js';
import { startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';
import { validateSarif } from '../support/validate-sarif.js';

/**
 * No silent degradation around the reduce call: a failed reduce warns and the report says why the
 * summary is missing; a whole reduce answer is cached, so a fully cached rerun makes no call; and
 * `--max-cost` and `--dry-run` count cached work at $0. Through the built CLI against a local
 * OpenAI-compatible fake with a price from the user config.
 */
const EXEC_LINE = 'exec(`convert ${req.body.input} out.png`);';
const LOW_LINE = "export const value0_0 = compute(0, 'module 0');";

let fake: FakeProviderServer;
let repo: string;
let home: string;
let model: string;
let configFile: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  model = `local-${new URL(fake.url).port}::house-model`;
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-reduce-')));
  home = mkdtempSync(path.join(tmpdir(), 'oy-reduce-home-'));
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(
    path.join(repo, 'src', 'run.js'),
    `const { exec } = require('child_process');\n${EXEC_LINE}\n`,
  );
  for (let dir = 0; dir < 4; dir++) {
    const lines = Array.from(
      { length: 60 },
      (_, index) => `export const value${dir}_${index} = compute(${index}, 'module ${dir}');`,
    );
    mkdirSync(path.join(repo, `lib${dir}`));
    writeFileSync(path.join(repo, `lib${dir}`, 'values.js'), lines.join('\n') + '\n');
  }
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  commitAll(repo);
  // A price high enough that the uncached estimate is well above $0.10.
  configFile = path.join(home, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({ models: { [model]: { price: { input: 100, output: 100 } } } }),
  );
});

afterEach(async () => {
  await fake.close();
});

const critical = {
  title: 'Command injection in convert',
  severity: 'critical',
  category: 'command-injection',
  path: 'src/run.js',
  line: 2,
  end_line: 2,
  evidence: EXEC_LINE,
  impact: 'Remote code execution',
  preconditions: 'The caller controls the request body',
  fix: 'Use execFile with an argument array',
  confidence: 0.9,
};
const low = {
  ...critical,
  title: 'Magic number in values',
  severity: 'low',
  category: 'maintainability',
  path: 'lib0/values.js',
  line: 1,
  end_line: 1,
  evidence: LOW_LINE,
  impact: 'Harder to read',
  fix: 'Name the constant',
  confidence: 0.6,
};

function findings(items: object[]): ScriptedAnswer {
  return {
    kind: 'answer',
    text: JSON.stringify({ findings: items }),
    usage: { inputTokens: 1000, outputTokens: 100 },
  };
}

function audit(args: string[]) {
  return runOy(
    ['audit', '--model', model, '--chunk-tokens', '1000', '--concurrency', '1', ...args],
    {
      cwd: repo,
      env: { OY_CONFIG: configFile, XDG_CACHE_HOME: path.join(home, 'cache') },
    },
  );
}

async function countChunks(): Promise<number> {
  const plan = await audit(['--dry-run', '--json']);
  expect(plan.code, plan.stderr).toBe(0);
  return (JSON.parse(plan.stdout) as { chunks: unknown[] }).chunks.length;
}

function readText(file: string): string {
  return readFileSync(path.join(repo, file), 'utf8');
}

/** Every chunk answers with the low finding first: the report must still list the critical one first. */
function mapAnswers(chunks: number): ScriptedAnswer[] {
  return Array.from({ length: chunks }, () => findings([low, critical]));
}

describe('a failed reduce call', () => {
  it('warns on stderr, and every format says the summary is missing and why; findings stay, by severity', async () => {
    const chunks = await countChunks();
    expect(chunks).toBeGreaterThan(1);
    // A fresh marker in the provider's message, with an escape sequence a terminal would obey.
    const marker = `reduce-down-${Math.random().toString(36).slice(2)}`;
    const providerError = {
      kind: 'error' as const,
      status: 400,
      errorType: 'invalid_request_error',
      message: `${marker} \u001b[2J\u001b]0;pwned\u0007`,
    };
    fake.enqueue(...mapAnswers(chunks), providerError);
    const json = await audit(['--format', 'json', '--out', 'out/r.json']);
    expect(json.code, json.stderr).toBe(0);
    expect(fake.modelCalls).toHaveLength(chunks + 1);
    const warnings = json.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^warning: the report has no summary \(failed\): the reduce call failed: .*reduce-down-/,
    );
    expect(warnings[0]).toContain(marker);
    expect(json.stderr).not.toContain('\u001b');
    expect(json.stderr).not.toContain('\u0007');
    // The closing summary on stderr says it too.
    expect(json.stderr).toMatch(/^model: .*, no summary \(failed\)$/m);
    const report = JSON.parse(readText('out/r.json')) as AuditReport;
    expect(report.summary).toBeNull();
    expect(report.summaryMissing?.reason).toBe('failed');
    expect(report.summaryMissing?.detail).toContain(marker);
    expect(report.findings.map((finding) => finding.severity)).toEqual(['critical', 'low']);

    // The failed answer was not cached: the next run asks again (maps come from the cache).
    fake.enqueue(providerError);
    const markdown = await audit(['--out', 'out/r.md']);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(fake.modelCalls).toHaveLength(chunks + 2);
    const text = readText('out/r.md');
    expect(text).toMatch(
      /\*\*Summary missing\*\*: no summary \(failed\): the reduce call failed: /,
    );
    expect(text).toContain(marker);
    expect(text).not.toMatch(/\| Result \| complete \|/);
    expect(text).toMatch(
      /\| Result \| \*\*reviewed without summary\*\*: every file was reviewed; no summary \(failed\)/,
    );
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text.indexOf('Command injection in convert')).toBeLessThan(
      text.indexOf('Magic number in values'),
    );

    fake.enqueue(providerError);
    const sarifRun = await audit(['--format', 'sarif', '--out', 'out/r.sarif']);
    expect(sarifRun.code, sarifRun.stderr).toBe(0);
    const sarif = JSON.parse(readText('out/r.sarif')) as {
      runs: {
        properties: { summaryMissing?: { reason: string } };
        invocations: { toolExecutionNotifications: { message: { text: string } }[] }[];
      }[];
    };
    expect(validateSarif(sarif)).toEqual([]);
    const run = sarif.runs[0];
    expect(run?.properties.summaryMissing?.reason).toBe('failed');
    expect(
      run?.invocations[0]?.toolExecutionNotifications.some((item) =>
        item.message.text.startsWith('no summary (failed): the reduce call failed'),
      ),
    ).toBe(true);
    fake.assertDone();
  });

  it('a cut reduce answer takes the same field and rendering (reason truncated)', async () => {
    const chunks = await countChunks();
    fake.enqueue(...mapAnswers(chunks), {
      ...reply.text('{"summary": "half a sum'),
      stopReason: 'max_tokens',
    });
    const result = await audit(['--format', 'json', '--out', 'out/r.json']);
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    expect(result.stderr).toMatch(
      /^warning: the report has no summary \(truncated\): the reduce answer was not used: /m,
    );
    const report = JSON.parse(readText('out/r.json')) as AuditReport;
    expect(report.summaryMissing?.reason).toBe('truncated');
    expect(report.findings.map((finding) => finding.severity)).toEqual(['critical', 'low']);
  });
});

describe('a fully cached rerun', () => {
  it('makes no model call at all: the reduce answer comes from the cache too', async () => {
    const chunks = await countChunks();
    fake.enqueue(
      ...mapAnswers(chunks),
      reply.text(
        JSON.stringify({
          summary: 'One critical command injection.',
          order: ['F1', 'F2'],
          merge: [],
        }),
      ),
    );
    const first = await audit(['--format', 'json', '--out', 'out/a.json']);
    expect(first.code, first.stderr).toBe(0);
    fake.assertDone();
    expect(fake.modelCalls).toHaveLength(chunks + 1);

    const second = await audit(['--format', 'json', '--out', 'out/b.json', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(fake.modelCalls).toHaveLength(chunks + 1);
    expect((JSON.parse(second.stdout) as { modelCalls: number }).modelCalls).toBe(0);
    const a = JSON.parse(readText('out/a.json')) as AuditReport;
    const b = JSON.parse(readText('out/b.json')) as AuditReport;
    expect(b.summary).toBe('One critical command injection.');
    expect(b.summary).toBe(a.summary);
    expect(b.findings).toEqual(a.findings);
    expect(b.summaryMissing).toBeUndefined();
    expect(b.coverage.costUsd).toBe(0);
  });
});

describe('--max-cost and --dry-run with a cache', () => {
  it('count cached chunks and the cached reduce at $0', async () => {
    const chunks = await countChunks();
    // Uncached, the estimate is above $0.10, so the limit refuses to start.
    const refused = await audit(['--max-cost', '0.10']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/above --max-cost 0\.1/);
    expect(fake.modelCalls).toHaveLength(0);
    const before = await audit(['--dry-run']);
    const costBefore = Number(/Estimate: .* about \$(\d+\.\d\d)/.exec(before.stdout)?.[1]);
    expect(costBefore).toBeGreaterThan(0.1);
    expect(before.stdout).not.toMatch(/cached, at \$0/);

    fake.enqueue(
      ...mapAnswers(chunks),
      reply.text(JSON.stringify({ summary: 'Ranked.', order: ['F1'], merge: [] })),
    );
    expect((await audit(['--out', 'out/a.md'])).code).toBe(0);
    fake.assertDone();

    const dry = await audit(['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(
        `Estimate: 0 input and 0 output tokens, about \\$0\\.00 \\(${chunks} of ${chunks} chunks and the reduce cached, at \\$0\\)`,
      ),
    );
    const dryJson = await audit(['--dry-run', '--json']);
    expect(JSON.parse(dryJson.stdout)).toMatchObject({
      estimate: { cachedChunks: chunks, isReduceCached: true, costUsd: 0 },
    });

    const capped = await audit(['--max-cost', '0.10', '--format', 'json', '--out', 'out/b.json']);
    expect(capped.code, capped.stderr).toBe(0);
    expect(fake.modelCalls).toHaveLength(chunks + 1);
    expect((JSON.parse(readText('out/b.json')) as AuditReport).summary).toBe('Ranked.');

    // One changed file: only its chunk (and then the reduce) is counted again.
    writeFileSync(
      path.join(repo, 'lib3', 'values.js'),
      `${readText('lib3/values.js')}// changed\n`,
    );
    const partly = await audit(['--dry-run', '--json']);
    const estimate = (
      JSON.parse(partly.stdout) as {
        estimate: { cachedChunks: number; isReduceCached: boolean; costUsd: number };
      }
    ).estimate;
    expect(estimate.cachedChunks).toBe(chunks - 1);
    expect(estimate.isReduceCached).toBe(false);
    expect(estimate.costUsd).toBeGreaterThan(0);
    expect(estimate.costUsd).toBeLessThan(costBefore);
    // --no-cache counts nothing as cached.
    const uncached = await audit(['--dry-run', '--json', '--no-cache']);
    expect(
      (JSON.parse(uncached.stdout) as { estimate: { cachedChunks: number } }).estimate.cachedChunks,
    ).toBe(0);
    expect(fake.modelCalls).toHaveLength(chunks + 1);
  });
});
