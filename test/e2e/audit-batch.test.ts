import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import type { FakeBatchBehaviour } from '../fakes/anthropic-batches.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import type { ScriptedAnswer } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { OY_BIN, runOy } from '../support/run-oy.js';

/** `oy audit --batch` through the built CLI against the fake's Message Batches. */
const MODEL = 'anthropic::claude-haiku-4-5';
const CHUNKS = 5;
/** claude-haiku-4-5's price per million tokens (input, output), as Anthropic lists it. */
const HAIKU = { input: 1, output: 5 };

let fake: FakeProviderServer;
let behaviour: FakeBatchBehaviour;
let repo: string;
let home: string;
/** A fresh command name per run, so the findings' text is never the same twice. */
let tag: string;

beforeEach(async () => {
  behaviour = { inProgressPolls: 1 };
  fake = await startFakeProvider({ batches: behaviour });
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-batch-audit-')));
  home = mkdtempSync(path.join(tmpdir(), 'oy-batch-home-'));
  tag = `run_${randomBytes(4).toString('hex')}`;
  // Five folders of one module each: with --chunk-tokens 1000, one chunk per folder.
  for (let dir = 0; dir < CHUNKS; dir++) {
    const lines = Array.from(
      { length: 45 },
      (_, index) => `export const value${dir}_${index} = compute(${index}, 'module ${dir}');`,
    );
    lines.splice(10, 0, vulnerableLine(dir));
    mkdirSync(path.join(repo, `lib${dir}`), { recursive: true });
    writeFileSync(path.join(repo, `lib${dir}`, 'run.js'), lines.join('\n') + '\n');
  }
  commitAll(repo);
});

afterEach(async () => {
  await fake.close();
});

function vulnerableLine(dir: number): string {
  return `export const run${dir} = (req) => exec('${tag} ' + req.query.arg${dir});`;
}

function finding(dir: number) {
  return {
    title: `Command injection in run${dir}`,
    severity: 'high',
    category: 'command-injection',
    path: `lib${dir}/run.js`,
    line: 11,
    end_line: 11,
    evidence: vulnerableLine(dir),
    impact: 'Remote code execution',
    preconditions: 'The caller controls the query',
    fix: 'Use execFile with an argument array',
    confidence: 0.9,
  };
}

const answer = (dir: number): ScriptedAnswer => ({
  kind: 'answer',
  text: JSON.stringify({ findings: [finding(dir)] }),
  usage: { inputTokens: 3000, outputTokens: 400 },
});
const reduceAnswer = (): ScriptedAnswer => ({
  kind: 'answer',
  text: JSON.stringify({ summary: 'Five command injections.', order: [], merge: [] }),
  usage: { inputTokens: 2000, outputTokens: 100 },
});

function env(): NodeJS.ProcessEnv {
  return {
    ...fakeProviderEnv(fake),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_STATE_HOME: path.join(home, 'state'),
    OY_BATCH_POLL_MS: '0',
  };
}

function audit(args: string[]) {
  return runOy(['audit', '--model', MODEL, '--chunk-tokens', '1000', ...args], {
    cwd: repo,
    env: env(),
  });
}

function readReport(file = 'out/report.json'): AuditReport {
  return JSON.parse(readFileSync(path.join(repo, file), 'utf8')) as AuditReport;
}

const batchCreates = () =>
  fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches');
const onlineCalls = () => fake.requests.filter((r) => r.path === '/v1/messages');
const batchRecords = () => {
  const dir = path.join(home, 'state', 'oy', 'batches');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
};

/** What a finding says, without what differs between runs by design (nothing should). */
function findingFields(report: AuditReport) {
  return report.findings.map((item) => ({ ...item }));
}

describe('oy audit --batch', () => {
  it('has five chunks to review', async () => {
    const plan = await audit(['--dry-run', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as { chunks: unknown[] }).chunks).toHaveLength(CHUNKS);
  });

  it('makes no online map call and reports the same verified findings as an online run', async () => {
    fake.enqueue(...Array.from({ length: CHUNKS }, (_, dir) => answer(dir)), reduceAnswer());
    const online = await audit(['--no-cache', '--concurrency', '1', '--out', 'out/online.json']);
    expect(online.code, online.stderr).toBe(0);
    expect(onlineCalls()).toHaveLength(CHUNKS + 1);
    const before = fake.requests.length;

    fake.enqueue(...Array.from({ length: CHUNKS }, (_, dir) => answer(dir)), reduceAnswer());
    const batch = await audit(['--no-cache', '--batch', '--out', 'out/batch.json']);
    expect(batch.code, batch.stderr).toBe(0);
    fake.assertDone();
    const batchRun = fake.requests.slice(before);
    // Only the batch endpoints and the one online reduce call.
    expect(batchRun.map((r) => `${r.method} ${r.path.replace(/msgbatch_\w+/, '{id}')}`)).toEqual([
      'POST /v1/messages/batches',
      'GET /v1/messages/batches/{id}',
      'GET /v1/messages/batches/{id}',
      'GET /v1/messages/batches/{id}',
      'GET /v1/messages/batches/{id}/results',
      'POST /v1/messages',
    ]);
    const created = batchRun[0]!.body as { requests: { custom_id: string; params: object }[] };
    expect(created.requests).toHaveLength(CHUNKS);
    for (const request of created.requests) {
      expect(request.custom_id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(request.params).not.toHaveProperty('stream');
    }
    expect(batch.stderr).toMatch(/batch msgbatch_fake_1: submitted 5 map call\(s\)/);
    expect(batch.stderr).toMatch(/batch msgbatch_fake_1: ended, 5 succeeded, 0 errored/);

    const onlineReport = readReport('out/online.json');
    const batchReport = readReport('out/batch.json');
    expect(batchReport.findings).toHaveLength(CHUNKS);
    expect(findingFields(batchReport)).toEqual(findingFields(onlineReport));
    expect(batchReport.unverified).toEqual(onlineReport.unverified);
    // Each run's own report is oy's output to the other: left out of the comparison.
    const sourceLedger = (report: AuditReport) =>
      report.coverage.ledger.filter((entry) => !entry.path.startsWith('out/'));
    expect(sourceLedger(batchReport)).toEqual(sourceLedger(onlineReport));
    // The map calls at half the price, the reduce call at the full one.
    const mapUsd = (CHUNKS * (3000 * HAIKU.input + 400 * HAIKU.output)) / 1e6;
    const reduceUsd = (2000 * HAIKU.input + 100 * HAIKU.output) / 1e6;
    expect(onlineReport.coverage.costUsd).toBeCloseTo(mapUsd + reduceUsd, 10);
    expect(batchReport.coverage.costUsd).toBeCloseTo(mapUsd / 2 + reduceUsd, 10);
    expect(batchRecords()).toEqual([]);
  });

  it('an errored request fails its chunk as failed(errored) and the run exits 4', async () => {
    fake.enqueue(
      answer(0),
      { kind: 'error', status: 500, errorType: 'api_error', message: 'fake batch failure' },
      answer(2),
      { ...answer(3), batchResult: 'expired' },
      answer(4),
      reduceAnswer(),
    );
    const result = await audit([
      '--no-cache',
      '--batch',
      '--format',
      'json',
      '--out',
      'out/report.json',
    ]);
    expect(result.code, result.stderr).toBe(4);
    fake.assertDone();
    expect(onlineCalls()).toHaveLength(1);
    const report = readReport();
    const failed = report.coverage.ledger.filter((entry) => entry.status === 'failed');
    expect(failed.map((entry) => entry.reason).sort()).toEqual(['errored', 'expired']);
    expect(failed.find((entry) => entry.reason === 'errored')?.detail).toMatch(
      /api_error: fake batch failure/,
    );
    expect(report.findings).toHaveLength(3);
    expect(batchRecords()).toEqual([]);
  });

  it('chunks already in the map cache are not submitted', async () => {
    fake.enqueue(...Array.from({ length: CHUNKS }, (_, dir) => answer(dir)), reduceAnswer());
    const first = await audit(['--concurrency', '1', '--out', 'out/first.json']);
    expect(first.code, first.stderr).toBe(0);
    // One module changes: only its chunk misses the cache.
    const file = path.join(repo, 'lib2', 'run.js');
    writeFileSync(file, readFileSync(file, 'utf8') + 'export const extra = 1;\n');
    commitAll(repo, 'change lib2');
    const before = fake.requests.length;
    // The same findings come back, so the reduce answer is the cached one: no reduce call.
    fake.enqueue(answer(2));
    const second = await audit(['--batch', '--out', 'out/second.json']);
    expect(second.code, second.stderr).toBe(0);
    fake.assertDone();
    const created = fake.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches');
    expect(created).toHaveLength(1);
    expect((created[0]!.body as { requests: unknown[] }).requests).toHaveLength(1);
    expect(readReport('out/second.json').coverage.cacheHits).toBe(CHUNKS - 1);
  });

  it('nothing is submitted when every chunk is in the cache', async () => {
    fake.enqueue(...Array.from({ length: CHUNKS }, (_, dir) => answer(dir)), reduceAnswer());
    expect((await audit(['--out', 'out/first.json'])).code).toBe(0);
    // The reduce answer is cached too: this run makes no call at all.
    const again = await audit(['--batch', '--out', 'out/again.json']);
    expect(again.code, again.stderr).toBe(0);
    fake.assertDone();
    expect(batchCreates()).toHaveLength(0);
  });

  it('a batch interrupted while in progress is picked up by a rerun, not submitted again', async () => {
    behaviour.inProgressPolls = Number.POSITIVE_INFINITY;
    fake.enqueue(...Array.from({ length: CHUNKS }, (_, dir) => answer(dir)), reduceAnswer());
    const child = spawn(
      process.execPath,
      [
        OY_BIN,
        'audit',
        '--model',
        MODEL,
        '--chunk-tokens',
        '1000',
        '--batch',
        '--out',
        'out/report.json',
      ],
      { cwd: repo, env: { ...process.env, NO_COLOR: '1', ...env() }, stdio: 'ignore' },
    );
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    // The batch exists and is being polled: the record is written before the first poll.
    await fake.whenRequested(fake.requests.length + 3);
    expect(batchCreates()).toHaveLength(1);
    expect(batchRecords()).toHaveLength(1);
    child.kill('SIGINT');
    await exited;
    expect(batchRecords()).toHaveLength(1);

    behaviour.inProgressPolls = 0;
    const rerun = await audit(['--batch', '--format', 'json', '--out', 'out/report.json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/batch msgbatch_fake_1: picked up from an earlier run/);
    fake.assertDone();
    expect(batchCreates()).toHaveLength(1);
    expect(readReport().findings).toHaveLength(CHUNKS);
    expect(batchRecords()).toEqual([]);
  });

  it('--batch-timeout fails the waiting chunks and keeps the batch for a rerun', async () => {
    behaviour.inProgressPolls = Number.POSITIVE_INFINITY;
    fake.enqueue(...Array.from({ length: CHUNKS }, (_, dir) => answer(dir)));
    const result = await runOy(
      ['audit', '--model', MODEL, '--chunk-tokens', '1000', '--batch', '--batch-timeout', '2s'],
      { cwd: repo, env: { ...env(), OY_BATCH_POLL_MS: '250' } },
    );
    // No chunk could be reviewed: the run fails, and says how to pick the batch up.
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/did not end within --batch-timeout/);
    expect(batchRecords()).toHaveLength(1);
  });

  it.each([
    [
      'bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0',
      /Bedrock batch inference needs S3 buckets/,
    ],
    ['local-8787::qwen2.5-coder', /an OpenAI-compatible server has no batch API/],
    ['openai::gpt-4o-mini', /OpenAI's Batch API/],
  ])('--batch with %s is a usage error naming the providers that have it', async (model, why) => {
    const result = await runOy(['audit', '--model', model, '--batch', '--dry-run'], {
      cwd: repo,
      env: env(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(why);
    expect(result.stderr).toMatch(/it works with anthropic:: models/);
    expect(fake.requests).toHaveLength(0);
  });

  it('the estimate shows batch prices', async () => {
    const online = await audit(['--dry-run', '--json']);
    const batch = await audit(['--dry-run', '--json', '--batch']);
    type Plan = { estimate: { costUsd: number; pricing?: string } };
    const onlinePlan = JSON.parse(online.stdout) as Plan;
    const batchPlan = JSON.parse(batch.stdout) as Plan;
    expect(batchPlan.estimate.pricing).toBe('batch');
    expect(onlinePlan.estimate.pricing).toBeUndefined();
    expect(batchPlan.estimate.costUsd).toBeLessThan(onlinePlan.estimate.costUsd);
    expect(batchPlan.estimate.costUsd).toBeGreaterThan(onlinePlan.estimate.costUsd / 2);
    const text = await audit(['--dry-run', '--batch']);
    expect(text.stdout).toMatch(/Estimate: .* about \$\d+\.\d\d at batch prices/);
  });

  it('--batch-timeout takes a duration, and only with --batch', async () => {
    const bad = await audit(['--batch', '--batch-timeout', '10']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--batch-timeout must be a duration from 1s to 1d/);
    const alone = await audit(['--batch-timeout', '2h']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--batch-timeout only applies with --batch/);
  });
});
