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

  it("hear a worker's replies while the main thread works, without an event-loop turn", async () => {
    // Reading is synchronous, so a pool that waited for an event-loop turn to hear its workers
    // would leave them idle after their first files. Checked by counting, under a controlled
    // pause: fill the worker, then, without ever yielding to the event loop, offer one more file
    // until the pool has heard a reply and takes it. A pool that heard replies only between turns
    // would refuse it for ever; the bound is generous, so a busy machine only makes it slower.
    const { ScanPool, FILES_IN_FLIGHT } = (await import(
      path.join(dist, 'scan/scan-pool.js')
    )) as Pool;
    const pool = new ScanPool(1, { encoding: 'o200k_base', budgetTokens: 100_000 });
    const file = (index: number) => ({
      path: `f${index}.js`,
      text: `const v${index} = ${index};\n`,
      size: 16,
      isTracked: true,
    });
    try {
      const offered = Array.from({ length: FILES_IN_FLIGHT }, (_, index) => pool.scan(file(index)));
      expect(offered.every((outcome) => outcome !== undefined)).toBe(true);
      // Full: with no reply heard yet, the next file is the caller's to scan.
      expect(pool.scan(file(FILES_IN_FLIGHT))).toBeUndefined();
      const pause = new Int32Array(new SharedArrayBuffer(4));
      let extra: ReturnType<typeof pool.scan>;
      for (let attempt = 0; attempt < SYNC_ATTEMPTS && extra === undefined; attempt++) {
        Atomics.wait(pause, 0, 0, SYNC_PAUSE_MS);
        extra = pool.scan(file(FILES_IN_FLIGHT + 1 + attempt));
      }
      expect(extra).toBeDefined();
      expect(pool.filesScanned).toBeGreaterThan(0);
      await Promise.all([...offered, extra]);
      expect(pool.filesScanned).toBe(FILES_IN_FLIGHT + 1);
    } finally {
      await pool.close();
    }
  });
});

/** How long the main thread blocks between offers, and how often: two minutes in all for 12 tiny files. */
const SYNC_PAUSE_MS = 100;
const SYNC_ATTEMPTS = 1_200;

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
  const { scopeFile } = await import(path.join(dist, 'scope/audit-scope.js'));
  // As prepareAudit wires them for the default scope: files it never sends get an estimate.
  const pool = new ScanPool(1, {
    encoding: 'o200k_base',
    budgetTokens: options.budgetTokens,
    exactScope: 'shipping',
  });
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
        needsExactTokens: (file: string) => scopeFile(file, 'shipping').scope === 'model',
      },
      onFileDone: (done: number) => options.onFileDone?.(done, pool),
    });
    return { result, pool };
  } finally {
    counter.free();
  }
}
