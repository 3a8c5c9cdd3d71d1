import { randomBytes } from 'node:crypto';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { AuditOptions } from '../../../src/audit/audit-options.js';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { renderPlan } from '../../../src/audit/plan/render-plan.js';
import type { PreparedAudit } from '../../../src/audit/prepare-audit.js';
import type { runAudit as RunAudit } from '../../../src/audit/run-audit.js';
import { ScanCache } from '../../../src/audit/scan/scan-cache.js';
import { scanText, type ScanTools } from '../../../src/audit/scan/scan-text.js';
import { scopeFile } from '../../../src/audit/scope/audit-scope.js';
import { createTokenCounter } from '../../../src/audit/tokens/count-tokens.js';
import { estimateTokens } from '../../../src/audit/tokens/estimate-tokens.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { commitAll } from '../../support/git-fixture.js';
import { normalizeReport } from '../../support/normalize-report.js';
import { PROJECT_ROOT } from '../../support/run-oy.js';

/**
 * A file the run's scope never sends to the model gets a token estimate instead of an exact count.
 * What is sent must not change: the chunks (parts, counts, ids), the ledger, the plan and the
 * reports are compared with the exact path (`countsOutOfScope: 'exact'`) on a realistic shop with
 * tests, fixtures, docs, translations and examples. The built pipeline is used so a scan worker
 * (which needs the compiled worker file) takes part.
 */
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'shop');
const DIST = path.join(PROJECT_ROOT, 'dist', 'audit');
const version = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

let repo: string;
let prepareAudit: (options: AuditOptions) => Promise<PreparedAudit>;
let runAudit: typeof RunAudit;
let closeAuditOutputs: (outputs: PreparedAudit['outputs']) => Promise<void>;

function options(overrides: Partial<AuditOptions> = {}): AuditOptions {
  return {
    root: repo,
    format: 'json',
    out: 'report.json',
    manifest: null,
    isForced: false,
    include: [],
    exclude: [],
    projectInclude: [],
    projectExclude: [],
    focus: [],
    diffRef: null,
    maxFileBytes: 1024 * 1024,
    chunkTokens: 64_000,
    maxChunks: 1000,
    tokenHeadroom: 1.3,
    encoding: 'o200k_base',
    isDryRun: true,
    concurrency: 1,
    maxCostUsd: null,
    failOn: null,
    baselinePath: null,
    writeBaselinePath: null,
    minCoverage: null,
    allowPartial: false,
    model: null,
    cacheDir: null,
    command: 'oy audit',
    scanConcurrency: 4,
    scanWorkers: 0,
    env: process.env,
    ...overrides,
  };
}

async function prepare(overrides: Partial<AuditOptions>): Promise<PreparedAudit> {
  const prepared = await prepareAudit(options(overrides));
  await closeAuditOutputs(prepared.outputs);
  return prepared;
}

/** Code of a given size, different each run, so the counts are not remembered from a fixture. */
function freshCode(lines: number): string {
  return Array.from(
    { length: lines },
    (_, line) =>
      `  it('case ${line} ${randomBytes(6).toString('hex')}', () => expect(sum(${line}, ${randomBytes(2).readUInt16BE()})).toBeGreaterThan(-1));\n`,
  ).join('');
}

beforeAll(async () => {
  ({ prepareAudit } = (await import(path.join(DIST, 'prepare-audit.js'))) as {
    prepareAudit: typeof prepareAudit;
  });
  ({ runAudit } = (await import(path.join(DIST, 'run-audit.js'))) as { runAudit: typeof RunAudit });
  ({ closeAuditOutputs } = (await import(path.join(DIST, 'outputs/resolve-audit-outputs.js'))) as {
    closeAuditOutputs: typeof closeAuditOutputs;
  });
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-estimates-')));
  cpSync(FIXTURE, repo, { recursive: true });
  // Large files on both sides of the scope: a source file the plan must split, a test it must not count.
  writeFileSync(
    path.join(repo, 'src', 'big-module.js'),
    `describe('x', () => {\n${freshCode(400)}});\n`,
  );
  writeFileSync(
    path.join(repo, 'test', 'big.test.js'),
    `describe('y', () => {\n${freshCode(400)}});\n`,
  );
  commitAll(repo);
}, 120_000);

describe('token estimates for files the scope never sends', () => {
  test.each([
    { chunkTokens: 64_000, scanWorkers: 0 },
    { chunkTokens: 1_500, scanWorkers: 0 },
    { chunkTokens: 1_500, scanWorkers: 1 },
  ])(
    'chunks, ledger and plan equal the exact path ($chunkTokens-token chunks, $scanWorkers workers)',
    async ({ chunkTokens, scanWorkers }) => {
      const estimated = await prepare({ chunkTokens, scanWorkers });
      const exact = await prepare({ chunkTokens, scanWorkers, countsOutOfScope: 'exact' });
      expect(estimated.chunkPlan.chunks.length).toBeGreaterThan(chunkTokens < 2_000 ? 3 : 0);
      expect(estimated.chunkPlan).toEqual(exact.chunkPlan);
      expect(estimated.droppedChunks).toEqual(exact.droppedChunks);
      expect(estimated.ledger).toEqual(exact.ledger);
      expect(estimated.plan).toEqual(exact.plan);

      const bySide = (prepared: PreparedAudit, scope: 'model' | 'deterministic') =>
        prepared.files.filter((file) => scopeFile(file.path, 'shipping').scope === scope);
      const outOfScope = bySide(estimated, 'deterministic');
      expect(outOfScope.map((file) => file.path)).toEqual(
        expect.arrayContaining(['test/big.test.js', 'locales/de.json', 'README.md']),
      );
      for (const file of outOfScope) {
        expect(file.isTokenEstimate, file.path).toBe(true);
        expect(file.lineTokens, file.path).toBeUndefined();
      }
      expect(bySide(exact, 'deterministic').some((file) => file.isTokenEstimate)).toBe(false);
      // Every file that may be sent is counted exactly, to the same numbers.
      const sent = bySide(estimated, 'model');
      expect(sent.some((file) => file.isTokenEstimate)).toBe(false);
      expect(sent).toEqual(bySide(exact, 'model'));
    },
    120_000,
  );

  test('the offline reports (Markdown and JSON) are the same as with exact counts', async () => {
    const clock = { now: () => new Date('2025-03-14T09:26:53.000Z') };
    const reports: string[] = [];
    for (const countsOutOfScope of ['estimate', 'exact'] as const) {
      for (const format of ['markdown', 'json'] as const) {
        const out = `report-${countsOutOfScope}.${format === 'json' ? 'json' : 'md'}`;
        const outcome = await runAudit(
          options({ isDryRun: false, format, out, chunkTokens: 1_500, countsOutOfScope }),
          clock,
        );
        expect(outcome.kind).toBe('report');
        reports.push(normalizeReport(readFileSync(path.join(repo, out), 'utf8'), repo, version));
        // Gone before the next run, which would list it as oy's own output.
        rmSync(path.join(repo, out));
      }
    }
    const [markdown, json, exactMarkdown, exactJson] = reports;
    expect(markdown).toContain('| Chunk budget | 1,500 tokens |');
    expect(markdown).toBe(exactMarkdown);
    expect(json).toBe(exactJson);
  }, 120_000);

  test('a cached estimate never serves a run that may send the file', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-estimates-cache-'));
    await prepare({ cacheDir, chunkTokens: 1_500 });
    const warm = await prepare({ cacheDir, chunkTokens: 1_500, scope: 'all' });
    const cold = await prepare({ chunkTokens: 1_500, scope: 'all' });
    expect(warm.files.some((file) => file.isTokenEstimate)).toBe(false);
    expect(warm.chunkPlan).toEqual(cold.chunkPlan);
    expect(
      warm.chunkPlan.chunks.flatMap((chunk) => chunk.parts.map((part) => part.path)),
    ).toContain('test/big.test.js');
    // And back: the exact counts now cached serve the shipping run, whose plan is unchanged.
    const again = await prepare({ cacheDir, chunkTokens: 1_500 });
    const fresh = await prepare({ chunkTokens: 1_500 });
    expect(again.plan).toEqual(fresh.plan);
    expect(again.chunkPlan).toEqual(fresh.chunkPlan);
  }, 120_000);

  test('the plan shows the checks-only tokens as an estimate from the files’ sizes', async () => {
    const prepared = await prepare({});
    const tests = prepared.plan.folders.find((folder) => folder.folder === 'test/');
    const expected = prepared.files
      .filter((file) => file.path.startsWith('test/'))
      .reduce((sum, file) => sum + estimateTokens(file.size), 0);
    expect(tests?.deterministicTokens).toBe(expected);
    expect(renderPlan(prepared.plan)).toMatch(/checks-only files\s+~tokens\s+folder/);
  }, 120_000);
});

describe('scanText and the scan cache with estimates', () => {
  const text = `export const a = 1;\n${freshCode(20)}`;
  const file = { path: 'test/a.test.ts', text, size: Buffer.byteLength(text), isTracked: true };
  const tools = (needsExactTokens: boolean): ScanTools => ({
    redact: (input) => createRedactor().redact(input),
    indexFile,
    counter: () => {
      if (!needsExactTokens) throw new Error('the tokenizer was loaded for an estimate');
      return createTokenCounter();
    },
    needsLineTokens: () => true,
    needsExactTokens: () => needsExactTokens,
  });

  test('an estimate loads no tokenizer and keeps no per-line counts', () => {
    const estimated = scanText(file, tools(false));
    expect(estimated.isTokenEstimate).toBe(true);
    expect(estimated.tokens).toBe(estimateTokens(file.size));
    expect(estimated.lineTokens).toBeUndefined();
    const exact = scanText(file, tools(true));
    expect(exact.isTokenEstimate).toBeUndefined();
    expect(exact.lineTokens?.length).toBe(exact.lineCount);
    // Everything but the counts is the same scan.
    const { tokens: _a, isTokenEstimate: _b, ...rest } = estimated;
    const { tokens: _c, lineTokens: _d, ...exactRest } = exact;
    expect(rest).toEqual(exactRest);
  });

  test('the cache gives an estimated entry only to a run that needs no exact count', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-estimates-entry-'));
    const key = ScanCache.keyFor(file.path, text);
    const first = await ScanCache.open(cacheDir, '/workspace', ['stamp']);
    first.set(key, scanText(file, tools(false)));
    await first.save();
    const cache = await ScanCache.open(cacheDir, '/workspace', ['stamp']);
    const never = (): boolean => false;
    expect(cache.get(key, never, () => true)).toBeUndefined();
    // With no say, every count must be exact.
    expect(cache.get(key, never)).toBeUndefined();
    expect(cache.get(key, never, () => false)?.isTokenEstimate).toBe(true);
    // However large the file: an estimate has no per-line counts, and a run that sends it nowhere
    // needs none, so a warm run does not scan a large out-of-scope file again.
    const always = (): boolean => true;
    expect(cache.get(key, always, () => false)?.isTokenEstimate).toBe(true);
    expect(cache.get(key, always, () => true)).toBeUndefined();
  });

  test('a warm run reads no out-of-scope file again, large ones included', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-estimates-warm-'));
    const cold = await prepare({ cacheDir, chunkTokens: 1_500 });
    expect(cold.files.find((f) => f.path === 'test/big.test.js')?.isTokenEstimate).toBe(true);
    const [cacheFile] = readdirSync(path.join(cacheDir, 'scan')).map((name) =>
      path.join(cacheDir, 'scan', name),
    );
    const written = statSync(cacheFile ?? '').ino;
    const warm = await prepare({ cacheDir, chunkTokens: 1_500 });
    // A warm run that scans nothing new writes no cache file; one that scanned a file again would.
    expect(statSync(cacheFile ?? '').ino).toBe(written);
    expect(warm.chunkPlan).toEqual(cold.chunkPlan);
  }, 120_000);
});
