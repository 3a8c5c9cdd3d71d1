import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOfChunk } from '../../src/audit/shard/assign-shard.js';
import { shardDigest } from '../../src/audit/shard/shard-digest.js';
import type { ShardReport } from '../../src/audit/shard/shard-report.js';
import type { AuditReport, Finding } from '../../src/audit/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import type { ScriptedAnswer } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { commitAll } from '../support/git-fixture.js';
import { runOy } from '../support/run-oy.js';

/** `oy audit --shard K/N` on 3 runners, then `oy report merge`, through the built CLI and the fake provider. */
const MODEL = 'anthropic::claude-haiku-4-5';
const SHARDS = 3;
const FILES = 6;
/** A budget the six modules each fill alone: six chunks. */
const CHUNK_FLAGS = ['--chunk-tokens', '1000', '--concurrency', '1', '--no-cache'];
/** Each merge makes its own reduce call, as each audit here does (a cached reduce is tested on its own). */
const MERGE_FLAGS = ['--no-cache'];

/**
 * What differs between two runs of the same audit and nothing else: when it ran and how long it
 * took, the command line, the seal (a MAC of the text, so of those fields too). The cost is a sum
 * of the same calls' prices in another order, so it is compared to the last few digits instead.
 */
const RUN_SPECIFIC_FIELDS = [
  'generatedAt',
  'command',
  'oySeal',
  'coverage.durationMs',
  'coverage.costUsd',
];

let fake: FakeProviderServer;
let repo: string;
let home: string;
let shareSizes: number[];

function sourceLine(dir: number, index: number): string {
  return `export const value${dir}_${index} = compute(${index}, 'module ${dir}', input${index});`;
}

beforeAll(async () => {
  fake = await startFakeProvider();
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-shards-')));
  home = mkdtempSync(path.join(tmpdir(), 'oy-shards-home-'));
  for (let dir = 0; dir < FILES; dir++) {
    const lines = Array.from({ length: 30 }, (_, index) => sourceLine(dir, index));
    mkdirSync(path.join(repo, `lib${dir}`), { recursive: true });
    writeFileSync(path.join(repo, `lib${dir}`, 'values.js'), lines.join('\n') + '\n');
  }
  // Left out by the repository itself: not reviewed, so it lowers the coverage ratio.
  writeFileSync(path.join(repo, '.oyignore'), 'ignored.js\n');
  writeFileSync(path.join(repo, 'ignored.js'), 'module.exports = 1;\n');
  writeFileSync(path.join(repo, '.gitignore'), 'out/\n');
  commitAll(repo);
  const plan = await oy(['audit', '--model', MODEL, ...CHUNK_FLAGS, '--dry-run', '--json']);
  const ids = (JSON.parse(plan.stdout) as { chunks: { id: string }[] }).chunks.map((c) => c.id);
  expect(ids).toHaveLength(FILES);
  shareSizes = Array.from(
    { length: SHARDS },
    (_, index) => ids.filter((id) => shardOfChunk(id, SHARDS) === index + 1).length,
  );
});

afterAll(async () => {
  await fake.close();
});

function oy(args: string[]) {
  return runOy(args, {
    cwd: repo,
    env: {
      ...fakeProviderEnv(fake),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      XDG_STATE_HOME: path.join(home, 'state'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
    },
  });
}

const SEVERITIES = ['critical', 'high', 'medium', 'medium', 'low', 'info'];

/**
 * Every map call gets the same answer: a finding in each module (so most are about files of
 * other chunks, which verify only against the whole run's reviewed lines), an invented one, and
 * one a prompt-injected model aims outside the workspace; both land in Unverified, once per chunk.
 */
function mapAnswer(): ScriptedAnswer {
  const findings = Array.from({ length: FILES }, (_, dir) => ({
    title: `Injection through input in module ${dir}`,
    severity: SEVERITIES[dir],
    category: 'code-injection',
    path: `lib${dir}/values.js`,
    line: 5 + dir,
    end_line: 5 + dir,
    evidence: sourceLine(dir, 4 + dir),
    impact: 'Code runs with the caller input',
    preconditions: 'The caller controls input',
    fix: 'Validate input',
    confidence: 0.8,
  }));
  findings.push(
    {
      ...findings[0]!,
      title: 'Invented',
      evidence: 'eval(request.body.code)',
      line: 2,
      end_line: 2,
    },
    { ...findings[1]!, title: 'Outside', path: '../../../etc/passwd', line: 1, end_line: 1 },
  );
  return {
    kind: 'answer',
    text: JSON.stringify({ findings }),
    usage: { inputTokens: 3000, outputTokens: 400 },
  };
}

function reduceAnswer(): ScriptedAnswer {
  return {
    kind: 'answer',
    text: JSON.stringify({
      summary: 'Six modules pass caller input to compute.',
      order: ['F3', 'F1', 'F2'],
      merge: [],
    }),
    usage: { inputTokens: 2000, outputTokens: 200 },
  };
}

function readReport(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(repo, file), 'utf8')) as Record<string, unknown>;
}

/** A report with the run-specific fields taken out, so the rest compares field by field. */
function comparable(report: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(report);
  for (const field of RUN_SPECIFIC_FIELDS) {
    const [head, tail] = field.split('.') as [string, string | undefined];
    if (tail === undefined) delete copy[head];
    else delete (copy[head] as Record<string, unknown>)[tail];
  }
  return copy;
}

function expectSameReport(merged: Record<string, unknown>, whole: Record<string, unknown>): void {
  expect(Object.keys(merged).sort()).toEqual(Object.keys(whole).sort());
  const a = comparable(merged);
  const b = comparable(whole);
  // One key at a time, so a failure names the field.
  for (const key of Object.keys(b)) expect({ [key]: a[key] }).toEqual({ [key]: b[key] });
  const costOf = (report: Record<string, unknown>) =>
    (report.coverage as { costUsd: number | null }).costUsd;
  if (costOf(whole) === null) expect(costOf(merged)).toBeNull();
  else expect(costOf(merged)).toBeCloseTo(costOf(whole) as number, 9);
}

async function runShards(prefix: string, extra: string[], isModel: boolean): Promise<string[]> {
  const files: string[] = [];
  for (let index = 1; index <= SHARDS; index++) {
    if (isModel)
      for (let call = 0; call < (shareSizes[index - 1] ?? 0); call++) fake.enqueue(mapAnswer());
    const file = `out/${prefix}-${index}.json`;
    const result = await oy([
      'audit',
      ...extra,
      ...CHUNK_FLAGS,
      '--shard',
      `${index}/${SHARDS}`,
      '--out',
      file,
    ]);
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    files.push(file);
  }
  return files;
}

describe('oy audit --shard K/N and oy report merge', () => {
  let modelShards: string[];
  let offlineShards: string[];

  beforeAll(async () => {
    modelShards = await runShards('model', ['--model', MODEL], true);
    offlineShards = await runShards('offline', ['--offline'], false);
  }, 300_000);

  it('3 shards of a 6-chunk audit, merged, equal the unsharded run field by field', async () => {
    const before = fake.modelCalls.length;
    fake.enqueue(...Array.from({ length: FILES }, mapAnswer), reduceAnswer());
    const whole = await oy([
      'audit',
      '--model',
      MODEL,
      ...CHUNK_FLAGS,
      '--format',
      'json',
      '--out',
      'out/whole.json',
    ]);
    expect(whole.code, whole.stderr).toBe(0);
    fake.assertDone();
    expect(fake.modelCalls.length - before).toBe(FILES + 1);

    fake.enqueue(reduceAnswer());
    const merged = await oy([
      'report',
      'merge',
      ...MERGE_FLAGS,
      ...modelShards,
      '--model',
      MODEL,
      '--out',
      'out/merged.json',
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    fake.assertDone();
    // Only the reduce call: the map calls were the shards'.
    expect(fake.modelCalls.length - before).toBe(FILES + 2);

    const wholeReport = readReport('out/whole.json');
    const mergedReport = readReport('out/merged.json');
    expectSameReport(mergedReport, wholeReport);
    // The comparison is not vacuous: the review found, ranked, summarised and left some unverified.
    const report = mergedReport as unknown as AuditReport;
    expect(report.summary).toBe('Six modules pass caller input to compute.');
    expect(report.findings).toHaveLength(FILES);
    expect(report.findings[0]?.path).toBe('lib2/values.js');
    expect(report.unverified).toHaveLength(2 * FILES);
    expect(report.unverified.map((finding) => finding.path)).toContain('../../../etc/passwd');
    // The six modules and the two ignore files; ignored.js is left out by .oyignore.
    expect(report.coverage.filesReviewed).toBe(FILES + 2);
    expect(report.coverage.skippedByReason).toEqual({ 'repository-ignore': 1 });
    expect(report.coverage.chunks).toBe(FILES);
    expect(report.coverage.tokensIn).toBe(FILES * 3000 + 2000);

    // The merge keeps the reduce answer in the review cache, as the audit does: a rerun makes no call.
    for (const round of [1, 2]) {
      if (round === 1) fake.enqueue(reduceAnswer());
      const calls = fake.modelCalls.length;
      const cachedMerge = await oy([
        'report',
        'merge',
        ...modelShards,
        '--model',
        MODEL,
        '--out',
        'out/cached.json',
      ]);
      expect(cachedMerge.code, cachedMerge.stderr).toBe(0);
      fake.assertDone();
      expect(fake.modelCalls.length - calls).toBe(round === 1 ? 1 : 0);
      expect((readReport('out/cached.json') as unknown as AuditReport).summary).toBe(
        report.summary,
      );
    }

    // SARIF and Markdown from the merge are the unsharded run's too.
    for (const [format, file] of [
      ['sarif', 'out/merged.sarif'],
      ['markdown', 'out/merged.md'],
    ] as const) {
      fake.enqueue(reduceAnswer());
      const other = await oy([
        'report',
        'merge',
        ...MERGE_FLAGS,
        ...modelShards,
        '--model',
        MODEL,
        '--out',
        file,
      ]);
      expect(other.code, other.stderr).toBe(0);
      fake.enqueue(...Array.from({ length: FILES }, mapAnswer), reduceAnswer());
      const direct = await oy([
        'audit',
        '--model',
        MODEL,
        ...CHUNK_FLAGS,
        '--format',
        format,
        '--out',
        `out/whole-${format}`,
      ]);
      expect(direct.code, direct.stderr).toBe(0);
      const strip = (text: string) =>
        text
          .replace(/oy-seal: [0-9a-f]+|"oySeal": "[0-9a-f]+"/g, '')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'DATE')
          .replace(/"commandLine": "[^"]*"|oy (audit|report merge) [^\n`"]*/g, 'COMMAND')
          .replace(/\d+(\.\d+)? ?(ms|s)\b/g, 'TIME')
          .replace(/"durationMs": \d+/g, 'DURATION')
          // A sum of the same prices in another order may differ in its last bits.
          .replace(
            /"costUsd": ([\d.e-]+)/g,
            (_, cost: string) => `COST ${Number(cost).toFixed(9)}`,
          );
      expect(strip(readFileSync(path.join(repo, file), 'utf8'))).toBe(
        strip(readFileSync(path.join(repo, `out/whole-${format}`), 'utf8')),
      );
    }
    fake.assertDone();
  }, 300_000);

  it('offline shards merge into the offline report', async () => {
    const whole = await oy([
      'audit',
      '--offline',
      ...CHUNK_FLAGS,
      '--format',
      'json',
      '--out',
      'out/offline-whole.json',
    ]);
    expect(whole.code, whole.stderr).toBe(0);
    const merged = await oy([
      'report',
      'merge',
      ...MERGE_FLAGS,
      ...offlineShards,
      '--out',
      'out/offline-merged.json',
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    expectSameReport(readReport('out/offline-merged.json'), readReport('out/offline-whole.json'));
    expect(readReport('out/offline-merged.json').mode).toBe('offline');
  });

  it.each([
    ['--fail-on high', ['--fail-on', 'high'], 3],
    ['--min-coverage 0.9', ['--min-coverage', '0.9'], 4],
    ['--min-coverage 0.8', ['--min-coverage', '0.8'], 0],
  ])(
    'a merge with %s exits as the unsharded audit does',
    async (_name, flags, code) => {
      fake.enqueue(...Array.from({ length: FILES }, mapAnswer), reduceAnswer());
      const whole = await oy([
        'audit',
        '--model',
        MODEL,
        ...CHUNK_FLAGS,
        ...flags,
        '--format',
        'json',
        '--out',
        'out/gated-whole.json',
      ]);
      fake.enqueue(reduceAnswer());
      const merged = await oy([
        'report',
        'merge',
        ...MERGE_FLAGS,
        ...modelShards,
        '--model',
        MODEL,
        ...flags,
        '--out',
        'out/gated.json',
      ]);
      fake.assertDone();
      expect(whole.code, whole.stderr).toBe(code);
      expect(merged.code, merged.stderr).toBe(code);
      const gates = (text: string) => text.split('\n').filter((line) => line.startsWith('gate: '));
      expect(gates(merged.stderr)).toEqual(gates(whole.stderr));
    },
    300_000,
  );

  it('--baseline at the merge suppresses what it suppresses in the unsharded run', async () => {
    fake.enqueue(...Array.from({ length: FILES }, mapAnswer), reduceAnswer());
    const written = await oy([
      'audit',
      '--model',
      MODEL,
      ...CHUNK_FLAGS,
      '--format',
      'json',
      '--out',
      'out/b.json',
      '--write-baseline',
      'out/baseline.json',
    ]);
    expect(written.code, written.stderr).toBe(0);
    fake.enqueue(...Array.from({ length: FILES }, mapAnswer), reduceAnswer());
    const whole = await oy([
      'audit',
      '--model',
      MODEL,
      ...CHUNK_FLAGS,
      '--baseline',
      'out/baseline.json',
      '--fail-on',
      'info',
      '--format',
      'json',
      '--out',
      'out/b-whole.json',
    ]);
    fake.enqueue(reduceAnswer());
    const merged = await oy([
      'report',
      'merge',
      ...MERGE_FLAGS,
      ...modelShards,
      '--model',
      MODEL,
      '--baseline',
      'out/baseline.json',
      '--fail-on',
      'info',
      '--out',
      'out/b-merged.json',
    ]);
    fake.assertDone();
    expect(merged.code, merged.stderr).toBe(whole.code);
    expect(merged.code).toBe(0);
    expectSameReport(readReport('out/b-merged.json'), readReport('out/b-whole.json'));
    expect((readReport('out/b-merged.json') as unknown as AuditReport).findings).toEqual([]);
  }, 300_000);

  describe('refuses what is not the N shares of one audit (exit 2, naming the file and the field)', () => {
    /** A shard file edited and given a fresh digest, as a forger (or another oy version) would. */
    function rewrite(from: string, to: string, change: (doc: ShardReport) => void): string {
      const { oySeal: _seal, ...doc } = readReport(from);
      change(doc as unknown as ShardReport);
      doc.digest = shardDigest(doc);
      writeFileSync(path.join(repo, to), JSON.stringify(doc, null, 2) + '\n');
      return to;
    }

    async function expectRefused(files: string[], file: string, field: string) {
      const result = await oy([
        'report',
        'merge',
        ...MERGE_FLAGS,
        ...files,
        '--out',
        'out/refused.json',
      ]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`cannot merge ${file}`);
      expect(result.stderr).toContain(field);
    }

    it('a shard with another option', async () => {
      const result = await oy([
        'audit',
        '--offline',
        ...CHUNK_FLAGS,
        '--exclude',
        'ignored.js',
        '--shard',
        '3/3',
        '--out',
        'out/other-option.json',
      ]);
      expect(result.code, result.stderr).toBe(0);
      await expectRefused(
        [offlineShards[0]!, offlineShards[1]!, 'out/other-option.json'],
        'out/other-option.json',
        'identity.options.exclude',
      );
    });

    it('a shard of another prompt version', async () => {
      const other = rewrite(modelShards[2]!, 'out/other-prompt.json', (doc) => {
        doc.identity.promptVersionHash = 'f'.repeat(64);
      });
      await expectRefused(
        [modelShards[0]!, modelShards[1]!, other],
        other,
        'identity.promptVersionHash',
      );
    });

    it('a shard given twice, and a missing shard', async () => {
      await expectRefused(
        [modelShards[0]!, modelShards[1]!, modelShards[1]!],
        modelShards[1]!,
        'shard.index',
      );
      await expectRefused(
        [modelShards[0]!, modelShards[2]!],
        modelShards[0]!,
        'shard 2/3 is missing',
      );
    });

    it('a shard of another split (2 shards where 3 were given)', async () => {
      const other = rewrite(modelShards[2]!, 'out/other-count.json', (doc) => {
        doc.shard.count = 4;
      });
      await expectRefused([modelShards[0]!, modelShards[1]!, other], other, 'shard.count');
    });

    it('a tampered file: an edit without a new digest, a share that is not its own, a verified path outside the workspace', async () => {
      const edited = 'out/edited.json';
      const doc = readReport(modelShards[1]!) as unknown as ShardReport;
      // A cheaper run than it was, as a careless edit or a forger might make it.
      doc.review!.totals.inputTokens += 1000;
      writeFileSync(path.join(repo, edited), JSON.stringify(doc, null, 2) + '\n');
      await expectRefused([modelShards[0]!, edited, modelShards[2]!], edited, 'digest');

      const stolen = rewrite(modelShards[1]!, 'out/stolen.json', (doc) => {
        doc.reviewedChunks = doc.chunks;
      });
      await expectRefused([modelShards[0]!, stolen, modelShards[2]!], stolen, 'reviewedChunks');

      const withVerified = modelShards.find((file) =>
        (readReport(file) as unknown as ShardReport).review!.byChunk.some(
          (item) => item.verified.length > 0,
        ),
      )!;
      const escaped = rewrite(withVerified, 'out/escaped.json', (doc) => {
        doc.review!.byChunk.find((item) => item.verified.length > 0)!.verified[0]!.path =
          '../../outside.js';
      });
      await expectRefused(
        modelShards.map((file) => (file === withVerified ? escaped : file)),
        escaped,
        'a path leaves the workspace',
      );
    });

    it('a file that is not a shard report, or not JSON, or breaks the schema', async () => {
      await expectRefused(
        [modelShards[0]!, 'out/whole.json'],
        'out/whole.json',
        'not an oy shard report',
      );
      writeFileSync(path.join(repo, 'out/not-json.json'), '{"oyShardReport": 1,');
      await expectRefused(['out/not-json.json'], 'out/not-json.json', 'not JSON');
      const broken = rewrite(modelShards[0]!, 'out/broken.json', (doc) => {
        // A finding with only a path: the schema wants every field.
        doc.report.findings = [{ path: 'x' } as unknown as Finding];
      });
      await expectRefused([broken, modelShards[1]!, modelShards[2]!], broken, 'report.findings');
    });

    // Last: it commits to the repository the other cases share.
    it('a shard of another commit', async () => {
      writeFileSync(path.join(repo, 'lib0', 'extra.js'), 'export const extra = 1;\n');
      commitAll(repo, 'another commit');
      const later = 'out/later-3.json';
      const result = await oy([
        'audit',
        '--offline',
        ...CHUNK_FLAGS,
        '--shard',
        '3/3',
        '--out',
        later,
      ]);
      expect(result.code, result.stderr).toBe(0);
      await expectRefused(
        [offlineShards[0]!, offlineShards[1]!, later],
        later,
        'identity.gitCommit',
      );
    }, 200_000);

    it('--out outside the workspace, before reading any shard', async () => {
      const result = await oy([
        'report',
        'merge',
        ...MERGE_FLAGS,
        ...modelShards,
        '--out',
        '../escape.json',
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--out');
    });
  });
});
