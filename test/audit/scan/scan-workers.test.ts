import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditOptions } from '../../../src/audit/audit-options.js';
import type { ScanResult } from '../../../src/audit/scan/scan-files.js';
import type { CandidateFile } from '../../../src/audit/types.js';

// Worker threads load compiled modules, so this suite drives the build in dist/ (npm test builds first).
const dist = path.resolve(import.meta.dirname, '../../../dist/audit');
type Prepare = typeof import('../../../src/audit/prepare-audit.js');
type Scan = typeof import('../../../src/audit/scan/scan-files.js');
type Pool = typeof import('../../../src/audit/scan/scan-pool.js');
type Cache = typeof import('../../../src/audit/scan/scan-cache.js');

let root: string;
const secrets: string[] = [];

function alnum(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'oy-scan-workers-'));
  for (let index = 0; index < 120; index++) {
    const folder = path.join(root, `pkg${index % 12}`);
    mkdirSync(folder, { recursive: true });
    const secret = `ghp_${alnum(36)}`;
    const aws = `AKIA${alnum(16).toUpperCase()}`;
    secrets.push(secret, aws);
    writeFileSync(
      path.join(folder, `file${index}.js`),
      [
        `// módulo ${index} — ünïcode 漢字 🙂`,
        `const token = "${secret}";`,
        `const awsKey = '${aws}';`,
        `app.get('/u/${index}', (req, res) => db.query("SELECT * FROM t WHERE id = " + req.params.id));`,
        `exec('ls ' + req.query.dir);`,
        ...Array.from(
          { length: index % 15 === 0 ? 400 : 20 },
          (_, line) => `let v${line} = ${line} * ${index};`,
        ),
      ].join('\n') + '\n',
    );
  }
  writeFileSync(path.join(root, 'README.md'), '# fixture\n');
});

function optionsFor(scanWorkers: number): AuditOptions {
  return {
    root,
    format: 'json',
    out: 'oy-audit.json',
    manifest: null,
    isForced: false,
    include: [],
    exclude: [],
    projectInclude: [],
    projectExclude: [],
    focus: [],
    diffRef: null,
    maxFileBytes: 1024 * 1024,
    chunkTokens: 2000,
    maxChunks: 10_000,
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
    scanConcurrency: 16,
    scanWorkers,
    env: process.env,
  };
}

describe('scan worker threads', () => {
  it('give exactly the in-process result: files, counts, per-line counts, hints, redactions, chunks', async () => {
    const { prepareAudit } = (await import(path.join(dist, 'prepare-audit.js'))) as Prepare;
    const alone = await prepareAudit(optionsFor(0));
    const withWorkers = await prepareAudit(optionsFor(2));
    expect(alone.files.length).toBe(121);
    expect(alone.files.some((file) => file.lineTokens !== undefined)).toBe(true);
    expect(alone.files.filter((file) => file.redactions.length >= 2)).toHaveLength(120);
    expect(withWorkers.files).toEqual(alone.files);
    expect(withWorkers.ledger).toEqual(alone.ledger);
    expect(withWorkers.chunkPlan).toEqual(alone.chunkPlan);
    expect(withWorkers.plan).toEqual(alone.plan);
    const scanned = JSON.stringify(withWorkers.files);
    for (const secret of secrets) expect(scanned.includes(secret)).toBe(false);
  });

  it('lose no file when the workers die mid-scan: the main thread scans what they held', async () => {
    const { prepareAudit } = (await import(path.join(dist, 'prepare-audit.js'))) as Prepare;
    const reference = await prepareAudit(optionsFor(0));
    const { chunkBudgetTokens } = await import(path.join(dist, 'chunk/plan-chunks.js'));
    let killed: Promise<void> | undefined;
    const { result } = await scanWithOneWorker(root, reference.candidates, {
      budgetTokens: chunkBudgetTokens(2000, 1.3),
      onFileDone: (done, pool) => {
        if (done === 5) killed = pool.close();
      },
    });
    await killed;
    expect(killed).toBeDefined();
    expect(result.ledger).toEqual([]);
    expect(result.files).toEqual(reference.files);
  });

  it('take a share of the files while the main thread reads and scans', async () => {
    // Reading is synchronous, so a pool that waited for an event-loop turn to hear its workers
    // would leave them idle after their first files; the workers must take many more.
    const big = mkdtempSync(path.join(tmpdir(), 'oy-scan-share-'));
    for (let index = 0; index < 240; index++) {
      const lines = Array.from(
        randomBytes(1_000),
        (byte, line) =>
          `  const v${line} = items.filter((x) => x.id !== ${byte}).map(f${byte % 9});`,
      );
      writeFileSync(path.join(big, `file${index}.js`), `function f() {\n${lines.join('\n')}\n}\n`);
    }
    const { prepareAudit } = (await import(path.join(dist, 'prepare-audit.js'))) as Prepare;
    const { candidates } = await prepareAudit({ ...optionsFor(0), root: big });
    expect(candidates).toHaveLength(240);
    const { result, pool } = await scanWithOneWorker(big, candidates, { budgetTokens: 100_000 });
    await pool.close();
    expect(result.ledger).toEqual([]);
    expect(result.files).toHaveLength(240);
    // The pool holds at most FILES_IN_FLIGHT files per worker: more than twice that shows its
    // replies were heard while the main thread worked.
    const { FILES_IN_FLIGHT } = (await import(path.join(dist, 'scan/scan-pool.js'))) as Pool;
    expect(pool.filesScanned).toBeGreaterThan(2 * FILES_IN_FLIGHT);
  });
});

/** Scans candidates with the built tools and a pool of one worker, as prepareAudit wires them. */
async function scanWithOneWorker(
  workspace: string,
  candidates: CandidateFile[],
  options: {
    budgetTokens: number;
    onFileDone?: (done: number, pool: InstanceType<Pool['ScanPool']>) => void;
  },
): Promise<{ result: ScanResult; pool: InstanceType<Pool['ScanPool']> }> {
  const { scanFiles } = (await import(path.join(dist, 'scan/scan-files.js'))) as Scan;
  const { ScanPool } = (await import(path.join(dist, 'scan/scan-pool.js'))) as Pool;
  const { ScanCache } = (await import(path.join(dist, 'scan/scan-cache.js'))) as Cache;
  const { needsLineTokens } = await import(path.join(dist, 'chunk/plan-chunks.js'));
  const { createRedactor } = await import(path.join(dist, '../safety/redact/redactor.js'));
  const { indexFile } = await import(path.join(dist, 'hints/index-file.js'));
  const { createTokenCounter } = await import(path.join(dist, 'tokens/count-tokens.js'));
  const pool = new ScanPool(1, { encoding: 'o200k_base', budgetTokens: options.budgetTokens });
  // Started before this thread loads its own tokenizer, so the share test measures how the pool
  // hears its worker, not how long the worker takes to start.
  pool.start();
  const counter = createTokenCounter('o200k_base');
  try {
    const result = await scanFiles(candidates, {
      maxFileBytes: 1024 * 1024,
      concurrency: 16,
      cache: await ScanCache.open(null, workspace, []),
      pool,
      tools: {
        redact: (text: string) => createRedactor().redact(text),
        indexFile,
        counter: () => counter,
        needsLineTokens: (file: string, tokens: number) =>
          needsLineTokens(file, tokens, options.budgetTokens),
      },
      onFileDone: (done: number) => options.onFileDone?.(done, pool),
    });
    return { result, pool };
  } finally {
    counter.free();
  }
}
