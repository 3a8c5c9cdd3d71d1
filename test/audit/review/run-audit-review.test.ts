import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditOptions } from '../../../src/audit/audit-options.js';
import { runAudit, type AuditDeps } from '../../../src/audit/run-audit.js';
import { withRetries, type RetryInfo } from '../../../src/providers/retry/with-retries.js';
import type { ModelClient } from '../../../src/providers/types.js';
import { reply, type ScriptedAnswer, type ScriptedReply } from '../../fakes/script.js';
import { ScriptedModelClient } from '../../fakes/scripted-model-client.js';

/** The review orchestration of `runAudit` on the in-process scripted model: no SDK, no socket. */

const MODEL = 'anthropic::claude-haiku-4-5';
/** claude-haiku-4-5 in the price table: $1 per million tokens in, $5 out. */
const costOf = (input: number, output: number) => (input * 1 + output * 5) / 1_000_000;

const RISKY_LINE = 'exec(`convert ${req.body.input} out.png`);';
const QUIET_LINE = 'export const total = values.reduce((sum, value) => sum + value, 0);';
let root: string;
let runs = 0;

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-audit-review-')));
  mkdirSync(path.join(root, 'quiet'));
  mkdirSync(path.join(root, 'risky'));
  // Two folders far over the chunk budget together, so they are two chunks; the risky one is reviewed first.
  const filler = (name: string) =>
    Array.from({ length: 40 }, (_, n) => `export const ${name}${n} = compute(${n}, '${name}');`);
  writeFileSync(path.join(root, 'quiet', 'sum.js'), [QUIET_LINE, ...filler('q')].join('\n') + '\n');
  writeFileSync(
    path.join(root, 'risky', 'convert.js'),
    ["const { exec } = require('child_process');", RISKY_LINE, ...filler('r')].join('\n') + '\n',
  );
});

function optionsFor(overrides: Partial<AuditOptions> = {}): AuditOptions {
  runs += 1;
  return {
    root,
    format: 'json',
    out: `report-${runs}.json`,
    manifest: null,
    isForced: false,
    include: [],
    exclude: [],
    projectInclude: [],
    projectExclude: [],
    focus: [],
    diffRef: null,
    maxFileBytes: 1024 * 1024,
    chunkTokens: 700,
    maxChunks: 1000,
    tokenHeadroom: 1.3,
    encoding: 'o200k_base',
    isDryRun: false,
    concurrency: 1,
    maxCostUsd: null,
    failOn: null,
    baselinePath: null,
    writeBaselinePath: null,
    minCoverage: null,
    allowPartial: false,
    model: MODEL,
    cacheDir: null,
    command: 'oy audit',
    scanConcurrency: 2,
    env: {},
    ...overrides,
  };
}

function finding(file: string, line: number, evidence: string, title: string) {
  return {
    title,
    severity: 'high',
    category: 'command-injection',
    path: file,
    line,
    end_line: line,
    evidence,
    impact: 'impact',
    preconditions: 'none',
    fix: 'fix it',
    confidence: 0.9,
  };
}

const findingsAnswer = (findings: object[], inputTokens = 1000, outputTokens = 100) =>
  ({
    kind: 'answer',
    text: JSON.stringify({ findings }),
    usage: { inputTokens, outputTokens },
  }) satisfies ScriptedAnswer;

const RISKY_FINDING = finding('risky/convert.js', 2, RISKY_LINE, 'Command injection in convert');
const QUIET_FINDING = finding('quiet/sum.js', 1, QUIET_LINE, 'Sum looks odd');
const FIXED_DATE = new Date('2030-01-02T03:04:05.000Z');

/** A scripted model and the deps that hand it to runAudit (with a fixed clock). */
function scripted(script: ScriptedReply[], wrap: (client: ModelClient) => ModelClient = (c) => c) {
  const fake = new ScriptedModelClient({ script, model: MODEL });
  const created: string[] = [];
  const deps: Partial<AuditDeps> = {
    createClient: async (ref) => {
      created.push(ref.id);
      return wrap(fake);
    },
    now: () => FIXED_DATE,
  };
  return { fake, deps, created };
}

const isMapCall = (rawBody: string) => rawBody.includes('=====OY-DATA-');

async function reportOf(options: AuditOptions, deps: Partial<AuditDeps>) {
  const outcome = await runAudit(options, deps);
  if (outcome.kind !== 'report') throw new Error('expected a report');
  return outcome;
}

describe('the model review inside runAudit', () => {
  it('maps each chunk riskiest first, then one reduce call; the reduce order and summary reach the report', async () => {
    const { fake, deps, created } = scripted([
      findingsAnswer([RISKY_FINDING]),
      findingsAnswer([QUIET_FINDING]),
      reply.text(
        JSON.stringify({ summary: 'Fix the exec first.', order: ['F2', 'F1'], merge: [] }),
        { inputTokens: 500, outputTokens: 50 },
      ),
    ]);
    const { report, plan } = await reportOf(optionsFor(), deps);
    expect(created).toEqual([MODEL]);
    expect(plan.chunks.length).toBe(2);
    const [first, second, reduce] = fake.calls;
    expect(isMapCall(first!.rawBody) && first!.rawBody.includes('risky/convert.js')).toBe(true);
    expect(isMapCall(second!.rawBody) && second!.rawBody.includes('quiet/sum.js')).toBe(true);
    expect(isMapCall(reduce!.rawBody)).toBe(false);
    expect(reduce!.request.system).toContain('final editor of a code audit');
    expect(report.summary).toBe('Fix the exec first.');
    // The deterministic order is by path (F1 quiet, F2 risky); the reduce answer reversed it.
    expect(report.findings.map((item) => item.path)).toEqual(['risky/convert.js', 'quiet/sum.js']);
    expect(report.coverage).toMatchObject({
      tokensIn: 2500,
      tokensOut: 250,
      isPartial: false,
      filesFailed: 0,
    });
    expect(report.coverage.costUsd).toBeCloseTo(costOf(2500, 250), 10);
    expect(report.generatedAt).toBe(FIXED_DATE.toISOString());
    expect(report.coverage.durationMs).toBe(0);
  });

  it('repairs an unusable map answer once, quoting the parse error, and counts both calls', async () => {
    const { fake, deps } = scripted([
      reply.text('I could not decide.', { inputTokens: 1000, outputTokens: 10 }),
      findingsAnswer([RISKY_FINDING]),
      findingsAnswer([]),
      reply.text('not json at all', { inputTokens: 0, outputTokens: 0 }),
    ]);
    const { report } = await reportOf(optionsFor(), deps);
    const repair = fake.calls[1]!.request.messages;
    expect(repair.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(repair.at(-1))).toContain('findings');
    // The reduce answer was unusable: the deterministic order stands, and the run goes on.
    expect(report.findings.map((item) => item.title)).toEqual(['Command injection in convert']);
    expect(report.coverage.tokensIn).toBe(3000);
    expect(report.coverage.tokensOut).toBe(210);
  });

  it('surfaces retries through the client wrapper and still reviews the chunk', async () => {
    const retries: RetryInfo[] = [];
    const { deps } = scripted(
      [reply.rateLimited('0'), findingsAnswer([]), reply.serverError(), findingsAnswer([])],
      (client) =>
        withRetries(client, {
          baseDelayMs: 1,
          maxDelayMs: 2,
          onRetry: (info) => retries.push(info),
        }),
    );
    const { report } = await reportOf(optionsFor(), deps);
    expect(retries.map((info) => info.error.kind)).toEqual(['rate_limited', 'server']);
    expect(report.coverage).toMatchObject({ filesFailed: 0, isPartial: false });
  });

  it('keeps a partial review when one chunk fails for good: that file is failed(<kind>), the other reviewed', async () => {
    const { fake, deps } = scripted([
      findingsAnswer([RISKY_FINDING]),
      reply.overloaded(),
      reply.text(JSON.stringify({ summary: 'One risk.', order: ['F1'], merge: [] })),
    ]);
    const { report, gates } = await reportOf(optionsFor(), deps);
    expect(fake.calls).toHaveLength(3);
    expect(report.coverage.isPartial).toBe(true);
    expect(report.coverage.failedByReason).toEqual({ overloaded: 1 });
    const entry = (file: string) => report.coverage.ledger.find((item) => item.path === file);
    expect(entry('quiet/sum.js')).toMatchObject({ status: 'failed', reason: 'overloaded' });
    expect(entry('risky/convert.js')).toMatchObject({ status: 'reviewed' });
    expect(report.findings.map((item) => item.title)).toEqual(['Command injection in convert']);
    expect(gates.exitCode).toBe(4);
  });

  it('fails the run on a fatal provider error (a refused key), launching no further calls', async () => {
    const { fake, deps } = scripted([reply.error(401)]);
    await expect(runAudit(optionsFor(), deps)).rejects.toMatchObject({ kind: 'auth' });
    expect(fake.calls).toHaveLength(1);
  });

  it('fails the run when no call reaches the provider, even with chunks served from the cache', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-audit-review-cache-'));
    // The first run reviews the risky chunk (now cached); the quiet one fails for a transient reason.
    const first = scripted([
      findingsAnswer([RISKY_FINDING]),
      reply.overloaded(),
      reply.text(JSON.stringify({ summary: 'One risk.', order: ['F1'], merge: [] })),
    ]);
    expect((await reportOf(optionsFor({ cacheDir }), first.deps)).gates.exitCode).toBe(4);
    // The endpoint is gone: the one call left fails to connect, so nothing was reviewed now.
    const refused = scripted([{ kind: 'answer', text: '{}', cutAfterEvents: 0 }]);
    const dead = runAudit(optionsFor({ cacheDir, allowPartial: true }), refused.deps);
    await expect(dead).rejects.toThrow(/could not be reached for any of the 1 chunk/);
    await expect(dead).rejects.toMatchObject({ exitCode: 1 });
    // Control: a transient failure beside the same cache hit is a partial result --allow-partial accepts
    // (the reduce over the same findings comes from the cache).
    const busy = scripted([reply.overloaded()]);
    const partial = await reportOf(optionsFor({ cacheDir, allowPartial: true }), busy.deps);
    expect(partial.report.coverage.cacheHits).toBe(1);
    expect(partial.gates.exitCode).toBe(0);
  });

  it('stops launching map calls at --max-cost and skips the reduce; the cost is what was spent', async () => {
    const { fake, deps } = scripted([findingsAnswer([RISKY_FINDING], 400_000, 1000)]);
    const { report } = await reportOf(optionsFor({ maxCostUsd: 0.3 }), deps);
    expect(fake.calls).toHaveLength(1);
    expect(report.coverage.failedByReason).toEqual({ 'max-cost': 1 });
    expect(report.coverage.costUsd).toBeCloseTo(costOf(400_000, 1000), 10);
  });
});
