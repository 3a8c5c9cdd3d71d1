import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport, LedgerEntry } from '../../src/audit/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply, type ScriptedAnswer } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { PROJECT_ROOT, runOy } from '../support/run-oy.js';
import { validateSarif } from '../support/validate-sarif.js';

/** The model-backed audit through the built CLI against the fake provider. */
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'webapp');
const EXEC_LINE = "exec(`convert ${req.body.input} out.png`, () => res.end('ok'));";

let fake: FakeProviderServer;
let repo: string;
let home: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-model-audit-')));
  cpSync(FIXTURE, repo, { recursive: true });
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  commitAll(repo);
  // A cache of its own per test, so one test's map results never answer another's.
  home = mkdtempSync(path.join(tmpdir(), 'oy-model-home-'));
});

afterEach(async () => {
  await fake.close();
});

function findingsAnswer(
  findings: object[],
  usage = { inputTokens: 3000, outputTokens: 400 },
): ScriptedAnswer {
  return { kind: 'answer', text: JSON.stringify({ findings }), usage };
}

const commandInjection = {
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
};

const wrongEvidence = {
  ...commandInjection,
  title: 'Invented XSS',
  category: 'xss',
  line: 3,
  evidence: 'document.write(location.hash)',
};

function audit(model: string, args: string[]) {
  return runOy(['audit', '--model', model, ...args], {
    cwd: repo,
    env: {
      ...fakeProviderEnv(fake),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      AWS_EC2_METADATA_DISABLED: 'true',
    },
  });
}

/** Adds modules in several directories, so a 1,000-token chunk budget needs several chunks. */
function growRepository(): void {
  for (let dir = 0; dir < 4; dir++) {
    const lines = Array.from(
      { length: 60 },
      (_, index) => `export const value${dir}_${index} = compute(${index}, 'module ${dir}');`,
    );
    mkdirSync(path.join(repo, `lib${dir}`), { recursive: true });
    writeFileSync(path.join(repo, `lib${dir}`, 'values.js'), lines.join('\n') + '\n');
  }
  commitAll(repo, 'grow');
}

/** How many chunks the plan for these flags has (`--dry-run`: no model call). */
async function countChunks(flags: string[]): Promise<number> {
  const plan = await audit('anthropic::claude-haiku-4-5', ['--dry-run', '--json', ...flags]);
  return (JSON.parse(plan.stdout) as { chunks: unknown[] }).chunks.length;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(repo, file), 'utf8')) as T;
}

describe('model-backed audit', () => {
  it.each([
    ['anthropic::claude-haiku-4-5', 'anthropic'],
    ['openai::gpt-4o-mini', 'openai'],
    ['bedrock::us.anthropic.claude-haiku-4-5-20251001-v1:0', 'bedrock'],
  ])(
    '%s: a small repository is reviewed in one call; wrong evidence lands in Unverified',
    async (model, protocol) => {
      fake.enqueue(findingsAnswer([commandInjection, wrongEvidence]));
      const result = await audit(model, ['--format', 'json', '--out', 'out/report.json']);
      expect(result.code, result.stderr).toBe(0);
      fake.assertDone();
      expect(fake.modelCalls.map((call) => call.protocol)).toEqual([protocol]);
      const report = readJson<AuditReport>('out/report.json');
      expect(report.mode).toBe('model');
      expect(report.findings.map((finding) => finding.title)).toEqual([
        'Command injection in convert',
      ]);
      expect(report.findings[0]).toMatchObject({
        path: 'src/routes/files.js',
        line: 13,
        severity: 'critical',
      });
      expect(report.unverified.map((finding) => finding.title)).toEqual(['Invented XSS']);
      expect(report.coverage.tokensIn).toBeGreaterThan(0);
      expect(report.method.promptVersionHash).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  it('keeps the injection file inside the delimiters and reports its marker', async () => {
    fake.enqueue(findingsAnswer([]));
    // docs/notes.md holds the hostile text: documentation reaches the model only with --scope all.
    const result = await audit('anthropic::claude-haiku-4-5', [
      '--scope',
      'all',
      '--format',
      'json',
      '--out',
      'out/report.json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const body = fake.modelCalls[0]?.body as {
      messages: { content: { type: string; text?: string }[] | string }[];
    };
    const content = body.messages[0]?.content;
    const text =
      typeof content === 'string'
        ? content
        : (content ?? []).map((block) => block.text ?? '').join('');
    const delimiter = /=====OY-DATA-[0-9a-f]{32}=====/.exec(text)?.[0];
    expect(delimiter).toBeDefined();
    const [, inside = ''] = text.split(delimiter ?? '');
    expect(inside).toContain('ignore previous instructions');
    expect(text.split(delimiter ?? '')).toHaveLength(3);
    const report = readJson<AuditReport>('out/report.json');
    expect(
      report.hints.some(
        (hint) => hint.category === 'prompt-injection' && hint.path === 'docs/notes.md',
      ),
    ).toBe(true);
  });

  it('--fail-on high exits 3, and a baseline written from that run suppresses it', async () => {
    fake.enqueue(findingsAnswer([commandInjection]));
    const first = await audit('anthropic::claude-haiku-4-5', [
      '--fail-on',
      'high',
      '--write-baseline',
      'out/baseline.json',
      '--no-cache',
    ]);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(/--fail-on high/);
    fake.enqueue(findingsAnswer([commandInjection]));
    const second = await audit('anthropic::claude-haiku-4-5', [
      '--fail-on',
      'high',
      '--baseline',
      'out/baseline.json',
      '--no-cache',
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/\d+ finding\(s\) suppressed by --baseline/);
    fake.assertDone();
  });

  it('a chunk that still fails after retries gives exit 4 and a failed ledger entry', async () => {
    growRepository();
    const chunks = await countChunks(['--chunk-tokens', '1000']);
    expect(chunks).toBeGreaterThan(1);
    // One at a time, riskiest first: the first chunk fails four times, the others are reviewed.
    const oneFailing = () => {
      fake.enqueue(
        reply.serverError(),
        reply.serverError(),
        reply.serverError(),
        reply.serverError(),
        ...Array.from({ length: chunks - 1 }, () => findingsAnswer([])),
      );
    };
    const flags = ['--chunk-tokens', '1000', '--concurrency', '1', '--no-cache'];
    oneFailing();
    const result = await audit('anthropic::claude-haiku-4-5', [
      ...flags,
      '--manifest',
      'out/ledger.json',
    ]);
    expect(result.code, result.stderr).toBe(4);
    fake.assertDone();
    expect(fake.modelCalls).toHaveLength(chunks + 3);
    const ledger = readJson<{ files: LedgerEntry[] }>('out/ledger.json');
    expect(ledger.files.filter((entry) => entry.status === 'failed').length).toBeGreaterThan(0);
    expect(ledger.files.find((entry) => entry.status === 'failed')).toMatchObject({
      reason: 'server',
    });
    oneFailing();
    const allowed = await audit('anthropic::claude-haiku-4-5', [...flags, '--allow-partial']);
    expect(allowed.code, allowed.stderr).toBe(0);
    fake.assertDone();
  });

  it('a second run on an unchanged repository makes no map calls, and one after a one-file change makes one', async () => {
    fake.enqueue(findingsAnswer([commandInjection]));
    expect((await audit('anthropic::claude-haiku-4-5', ['--out', 'out/a.md'])).code).toBe(0);
    const second = await audit('anthropic::claude-haiku-4-5', [
      '--format',
      'json',
      '--out',
      'out/b.json',
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(fake.modelCalls).toHaveLength(1);
    expect(readJson<AuditReport>('out/b.json').coverage.cacheHits).toBe(1);
    writeFileSync(
      path.join(repo, 'src', 'session.js'),
      readFileSync(path.join(repo, 'src', 'session.js'), 'utf8') + '// changed\n',
    );
    fake.enqueue(findingsAnswer([commandInjection]));
    expect((await audit('anthropic::claude-haiku-4-5', ['--out', 'out/c.md'])).code).toBe(0);
    expect(fake.modelCalls).toHaveLength(2);
    fake.assertDone();
  });

  it('--max-cost below the estimate refuses to start, with no model call', async () => {
    const result = await audit('anthropic::claude-haiku-4-5', ['--max-cost', '0.000001']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/above --max-cost/);
    expect(fake.modelCalls).toHaveLength(0);
  });

  it('writes SARIF with verified findings that validates against the schema', async () => {
    fake.enqueue(findingsAnswer([commandInjection, wrongEvidence]));
    const result = await audit('anthropic::claude-haiku-4-5', [
      '--format',
      'sarif',
      '--out',
      'out/oy.sarif',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const sarif = readJson<{
      runs: { results: { ruleId: string; partialFingerprints: Record<string, string> }[] }[];
    }>('out/oy.sarif');
    expect(validateSarif(sarif)).toEqual([]);
    const results = sarif.runs[0]?.results ?? [];
    expect(results.some((item) => item.ruleId.includes('command-injection'))).toBe(true);
    expect(results.some((item) => item.ruleId.includes('xss'))).toBe(false);
  });

  it('a larger repository goes through map and reduce, ranked and summarised', async () => {
    growRepository();
    const chunks = await countChunks(['--chunk-tokens', '1000']);
    expect(chunks).toBeGreaterThan(1);
    const answers = Array.from({ length: chunks }, () => findingsAnswer([commandInjection]));
    fake.enqueue(
      ...answers,
      reply.text(
        JSON.stringify({ summary: 'One critical command injection.', order: ['F1'], merge: [] }),
      ),
    );
    const result = await audit('anthropic::claude-haiku-4-5', [
      '--chunk-tokens',
      '1000',
      '--format',
      'json',
      '--out',
      'out/r.json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    expect(fake.modelCalls).toHaveLength(chunks + 1);
    const report = readJson<AuditReport>('out/r.json');
    expect(report.summary).toBe('One critical command injection.');
    // The same finding reported from every chunk that held the file is one finding after de-duplication.
    expect(report.findings).toHaveLength(1);
  });

  it('--max-cost stops launching calls once reached and the run is partial', async () => {
    growRepository();
    const chunks = await countChunks(['--chunk-tokens', '1000']);
    // One expensive answer uses up the budget; the rest of the chunks are never sent.
    fake.enqueue(findingsAnswer([], { inputTokens: 5_000_000, outputTokens: 0 }));
    const result = await audit('anthropic::claude-haiku-4-5', [
      '--chunk-tokens',
      '1000',
      '--max-cost',
      '1',
      '--concurrency',
      '1',
      '--format',
      'json',
      '--out',
      'out/r.json',
    ]);
    expect(result.code, result.stderr).toBe(4);
    fake.assertDone();
    expect(fake.modelCalls).toHaveLength(1);
    const report = readJson<AuditReport>('out/r.json');
    expect(report.coverage.failedByReason['max-cost']).toBeGreaterThan(0);
    expect(chunks).toBeGreaterThan(1);
  });

  it('--dry-run with a model estimates tokens and cost and calls nothing', async () => {
    const result = await audit('anthropic::claude-haiku-4-5', ['--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Estimate: \d+ input and \d+ output tokens, about \$\d+\.\d\d/);
    expect(fake.modelCalls).toHaveLength(0);
  });
});

describe('model-backed audit with a thinking model', () => {
  it('leaves the map call room to think and still reads its findings', async () => {
    fake.enqueue({
      ...findingsAnswer([commandInjection]),
      thinking: [{ text: 'The exec call takes request input.' }],
    });
    const result = await audit('anthropic::claude-sonnet-5', [
      '--format',
      'json',
      '--out',
      'out/report.json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    // Thinking counts against max_tokens: the answer's 8,192-token share comes on top of it.
    expect((fake.modelCalls[0]!.body as { max_tokens: number }).max_tokens).toBeGreaterThan(8192);
    const report = readJson<AuditReport>('out/report.json');
    expect(report.findings.map((finding) => finding.title)).toEqual([
      'Command injection in convert',
    ]);
  });

  it('map and reduce on Bedrock: every call leaves room to think, and the reduce answer is read after thinking', async () => {
    growRepository();
    const chunks = await countChunks(['--chunk-tokens', '1000']);
    expect(chunks).toBeGreaterThan(1);
    const thinking = [{ text: 'Weighing the evidence.' }];
    fake.enqueue(
      ...Array.from({ length: chunks }, () => ({
        ...findingsAnswer([commandInjection]),
        thinking,
      })),
      {
        ...reply.text(
          JSON.stringify({ summary: 'One command injection.', order: ['F1'], merge: [] }),
        ),
        thinking,
      },
    );
    const result = await audit('bedrock::global.anthropic.claude-sonnet-5', [
      '--chunk-tokens',
      '1000',
      '--format',
      'json',
      '--out',
      'out/r.json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    expect(fake.modelCalls).toHaveLength(chunks + 1);
    const limits = fake.modelCalls.map(
      (call) => (call.body as { inferenceConfig: { maxTokens: number } }).inferenceConfig.maxTokens,
    );
    // Map answers get 8,192 tokens and the reduce answer 4,096, each with thinking's room on top.
    expect(limits.slice(0, -1).every((limit) => limit > 8192)).toBe(true);
    expect(limits.at(-1)).toBeGreaterThan(4096);
    expect(readJson<AuditReport>('out/r.json').summary).toBe('One command injection.');
  });
});
