import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { AuditOptions } from '../../../src/audit/audit-options.js';
import { coverageRatio } from '../../../src/audit/gates/coverage-ratio.js';
import { estimateReviewCost } from '../../../src/audit/plan/estimate-review-cost.js';
import { renderPlan } from '../../../src/audit/plan/render-plan.js';
import { prepareAudit } from '../../../src/audit/prepare-audit.js';
import { runAudit } from '../../../src/audit/run-audit.js';
import type { AuditReport, LedgerEntry } from '../../../src/audit/types.js';
import { UsageError } from '../../../src/shared/errors.js';
import { commitAll } from '../../support/git-fixture.js';
import { normalizeReport } from '../../support/normalize-report.js';
import { PROJECT_ROOT } from '../../support/run-oy.js';

/**
 * Pipeline tier: a realistic Express shop (routes, models, middleware, tests, fixtures,
 * translations, docs, examples) audited offline in-process. Its secrets are made at run time.
 */
const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'repos', 'shop');
const SNAPSHOTS = path.join(PROJECT_ROOT, 'snapshots', 'audit', 'scope');
const version = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

let repo: string;
let cacheDir: string;
let githubToken: string;
let fixtureJwt: string;
let markdown: string;
let json: AuditReport;
let ledger: Map<string, LedgerEntry>;

function options(overrides: Partial<AuditOptions> = {}): AuditOptions {
  return {
    root: repo,
    format: 'markdown',
    out: 'ISSUES.md',
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
    maxChunks: 80,
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
    model: null,
    // One scan cache for the file: later runs read the same files from it.
    cacheDir,
    command: 'oy audit',
    scanConcurrency: 4,
    env: process.env,
    ...overrides,
  };
}

/** The report's date is fixed, so the snapshot does not change with the day. */
const FIXED_CLOCK = { now: () => new Date('2025-03-14T09:26:53.000Z') };

function randomText(length: number, alphabet: string): string {
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

beforeAll(async () => {
  repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-shop-')));
  cpSync(FIXTURE, repo, { recursive: true });
  cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-shop-cache-'));
  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  githubToken = `ghp_${randomText(36, alnum)}`;
  const b64url = (value: string) => Buffer.from(value).toString('base64url');
  fixtureJwt = [
    b64url('{"alg":"HS256","typ":"JWT"}'),
    b64url(`{"sub":"admin-${randomText(8, alnum)}","role":"admin"}`),
    randomBytes(32).toString('base64url'),
  ].join('.');
  mkdirSync(path.join(repo, 'src', 'integrations'));
  writeFileSync(
    path.join(repo, 'src', 'integrations', 'github.js'),
    `// Opens an issue when an order fails to ship.\nconst token = '${githubToken}';\n\nmodule.exports = { token };\n`,
  );
  writeFileSync(
    path.join(repo, 'test', 'fixtures', 'session.js'),
    `// A signed-in admin for the route tests.\nmodule.exports = { adminJwt: '${fixtureJwt}' };\n`,
  );
  commitAll(repo);
  const outcome = await runAudit(options({ manifest: 'ledger.json' }), FIXED_CLOCK);
  expect(outcome.kind).toBe('report');
  markdown = readFileSync(path.join(repo, 'ISSUES.md'), 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(repo, 'ledger.json'), 'utf8')) as {
    files: LedgerEntry[];
  };
  ledger = new Map(manifest.files.map((entry) => [entry.path, entry]));
  await runAudit(options({ format: 'json', out: 'report.json' }), FIXED_CLOCK);
  json = JSON.parse(readFileSync(path.join(repo, 'report.json'), 'utf8')) as AuditReport;
});

/** The rows of the summary table: severity, title, code, count, locations. */
function summaryRows(): string[][] {
  const section = markdown.split('## Findings summary')[1]!.split('\n## ')[0]!;
  return section
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('| ') && !line.startsWith('| Severity') && !line.startsWith('| ---'),
    )
    .map((line) => line.slice(2, -2).split(' | '));
}

describe('the offline report of a realistic web application', () => {
  test('matches its snapshot, and never holds a generated secret', async () => {
    expect(markdown).not.toContain(githubToken);
    expect(markdown).not.toContain(fixtureJwt);
    expect(JSON.stringify(json)).not.toContain(githubToken);
    await expect(normalizeReport(markdown, repo, version)).toMatchFileSnapshot(
      path.join(SNAPSHOTS, 'shop.md'),
    );
  });

  test('puts application code first, one line per rule, with counts', () => {
    const rows = summaryRows();
    const codes = rows.map((row) => row[2]);
    const firstOther = codes.findIndex((code) => code !== 'application code');
    expect(firstOther).toBeGreaterThan(5);
    expect(codes.slice(firstOther)).not.toContain('application code');
    // The vulnerabilities planted in the routes are among the first lines.
    const firstTitles = rows
      .slice(0, 8)
      .map((row) => row[1])
      .join('\n');
    expect(firstTitles).toMatch(/SQL/);
    expect(firstTitles).toMatch(/[Ss]hell command|command/);
    // Grouping: fewer lines than results, and each line says how many.
    expect(rows.length).toBeLessThan(json.hints.length + json.secrets.length);
    for (const row of rows) expect(Number(row[3])).toBeGreaterThan(0);
  });

  test('ranks a secret in a test fixture below the same kind of secret in application code', () => {
    const rows = summaryRows();
    const appSecret = rows.find((row) => row[4] === 'src/integrations/github.js:2');
    const fixtureSecret = rows.find((row) => row[4] === 'test/fixtures/session.js:2');
    expect(appSecret?.[0]).toBe('high');
    expect(fixtureSecret?.[0]).toBe('medium');
    expect(rows.indexOf(appSecret!)).toBeLessThan(rows.indexOf(fixtureSecret!));
  });

  test('fills the detailed section with application-code hints only', () => {
    const detailed = markdown.split('## Detailed findings')[1]!.split('\n## ')[0]!;
    const places = [...detailed.matchAll(/· `([^`]+):\d+` ·/g)].map((match) => match[1]!);
    expect(places.length).toBeGreaterThan(4);
    for (const place of places) expect(place).toMatch(/^src\//);
  });

  test('leaves tests, fixtures, translations, docs and examples to the deterministic checks by default', () => {
    for (const [file, kind] of [
      ['test/routes/accounts.test.js', 'test'],
      ['test/fixtures/products.json', 'fixture'],
      ['locales/fr.json', 'translation'],
      ['docs/api.md', 'docs'],
      ['README.md', 'docs'],
      ['examples/client.js', 'example'],
    ] as const) {
      expect(ledger.get(file), file).toMatchObject({
        status: 'skipped',
        reason: 'scope',
        kind,
        scope: 'deterministic',
      });
    }
    for (const file of ['src/routes/orders.js', 'scripts/seed.js', '.github/workflows/ci.yml']) {
      expect(ledger.get(file), file).toMatchObject({
        status: 'reviewed',
        kind: 'source',
        scope: 'model',
      });
    }
    // Deterministic only still means checked: the tests' weak hash is a hint of its own.
    expect(json.hints.some((hint) => hint.path === 'test/routes/accounts.test.js')).toBe(true);
    expect(json.coverage.scope).toBe('shipping');
    expect(markdown).toMatch(/Deterministic checks only \(`--scope shipping`\): tests 2, fixtures/);
    // Files left to the checks do not lower coverage: the user chose the scope.
    expect(coverageRatio(json.coverage).ratio).toBe(1);
  });

  test('--scope all sends everything to the model', async () => {
    const prepared = await prepareAudit(options({ scope: 'all', isDryRun: true }));
    const scoped = prepared.ledger.filter((entry) => entry.reason === 'scope');
    expect(scoped).toEqual([]);
    const chunked = prepared.chunkPlan.chunks.flatMap((chunk) =>
      chunk.parts.map((part) => part.path),
    );
    expect(chunked).toContain('locales/de.json');
    expect(chunked).toContain('test/routes/products.test.js');
  });
});

describe('planning a run that is too big', () => {
  test('--dry-run shows tokens by top-level folder and the largest files', async () => {
    const prepared = await prepareAudit(options({ isDryRun: true }));
    const folders = new Map(prepared.plan.folders.map((folder) => [folder.folder, folder]));
    expect(folders.get('locales/')).toMatchObject({ files: 0, deterministicFiles: 3 });
    expect(folders.get('src/')?.files).toBe(12);
    expect(prepared.plan.largestFiles[0]?.path).toMatch(/^src\//);
    const text = renderPlan(prepared.plan);
    expect(text).toContain('Tokens by top-level folder');
    expect(text).toMatch(/\n\s+0\s+0\s+3\s+[\d,]+\s+locales\//);
    expect(text).toContain('Largest files sent to the model');
    expect(text).toContain('deterministic checks only: tests 2, fixtures and test data 2');
    // With a price, each folder shows its share of the estimate; the shares add up to the whole.
    const price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
    const estimate = estimateReviewCost(prepared.plan, price);
    const priced = renderPlan({ ...prepared.plan, estimate });
    expect(priced).toContain('(cost: its share of the estimate for the whole scope)');
    expect(priced).toMatch(/\n\s+0\s+0\s+-\s+3\s+[\d,]+\s+locales\//);
    const shares = [...priced.matchAll(/ \$(\d+\.\d\d) /g)].map((match) => Number(match[1]));
    expect(shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(estimate.costUsd!, 1);
  });

  test('the --max-chunks error names the heaviest folders and files and how to narrow', async () => {
    const error = await runAudit(
      options({ model: 'anthropic::claude-sonnet-4-5', chunkTokens: 1000, maxChunks: 1 }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    const { message, hint } = error as UsageError;
    expect(message).toMatch(
      /^this run needs \d+ chunks, more than --max-chunks 1: most tokens are in src\/ \(\d+%\)/,
    );
    expect(message).toMatch(/the largest files are src\//);
    expect(hint).toContain("--exclude 'src/**'");
    expect(hint).toContain('--riskiest 1');
  });

  test('--riskiest keeps the riskiest chunks and marks the rest skipped(budget), which lowers coverage', async () => {
    const all = await prepareAudit(options({ chunkTokens: 1000, isDryRun: true }));
    expect(all.chunkPlan.chunks.length).toBeGreaterThan(2);
    const prepared = await prepareAudit(
      options({ chunkTokens: 1000, riskiestChunks: 2, isDryRun: true }),
    );
    expect(prepared.chunkPlan.chunks).toHaveLength(2);
    expect(prepared.plan.chunksNeeded).toBe(all.chunkPlan.chunks.length);
    const maxRisk = Math.max(...all.chunkPlan.chunks.map((chunk) => chunk.riskScore));
    expect(
      prepared.chunkPlan.chunks[0]!.riskScore === maxRisk ||
        prepared.chunkPlan.chunks[1]!.riskScore === maxRisk,
    ).toBe(true);
    const budget = prepared.ledger.filter((entry) => entry.reason === 'budget');
    expect(budget.length).toBeGreaterThan(0);
    for (const entry of budget) expect(entry).toMatchObject({ status: 'skipped', scope: 'model' });
    const skippedByReason = { budget: budget.length };
    const reviewed = prepared.ledger.filter((entry) => entry.status === 'reviewed').length;
    expect(
      coverageRatio({ filesReviewed: reviewed, filesFailed: 0, skippedByReason }).ratio,
    ).toBeLessThan(1);
    expect(renderPlan(prepared.plan)).toMatch(/Chunks: 2 of \d+ \(--riskiest 2: /);
  });
});
