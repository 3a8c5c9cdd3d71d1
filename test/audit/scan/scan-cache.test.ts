import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheSeal } from '../../../src/audit/cache-seal/cache-seal.js';
import { ScanCache } from '../../../src/audit/scan/scan-cache.js';
import type { ScannedFile } from '../../../src/audit/scan/scanned-file.js';

function scanned(filePath: string, tokens: number): ScannedFile {
  return {
    path: filePath,
    size: 10,
    isTracked: true,
    sourceHash: 'a'.repeat(64),
    contentHash: 'b'.repeat(64),
    tokens,
    lineCount: 1,
    redactions: [],
    hints: [],
  };
}

const never = (): boolean => false;

/** The cache file of a cache directory. */
function cacheFile(cacheDir: string): string {
  const dir = path.join(cacheDir, 'scan');
  return path.join(dir, readdirSync(dir)[0] ?? '');
}

/** The seal a cache opened without one uses: this process's own key, as the runs below do. */
const seal = CacheSeal.derive(undefined, 'scan-cache');

/** The cache file's JSON, its seal checked. */
function readCache(cacheDir: string): Record<string, unknown> {
  const opened = seal.open(readFileSync(cacheFile(cacheDir)), '/workspace');
  if ('problem' in opened) throw new Error(`the cache file does not verify: ${opened.problem}`);
  return JSON.parse(opened.text) as Record<string, unknown>;
}

/** Adds a field the cache ignores on reading and drops on writing: it survives only if nothing wrote. */
function mark(cacheDir: string): void {
  const data = JSON.stringify({ ...readCache(cacheDir), mark: true });
  writeFileSync(cacheFile(cacheDir), seal.seal(data, '/workspace'));
}

function isMarked(cacheDir: string): boolean {
  return readCache(cacheDir).mark === true;
}

/** One scan over `files` and `headers`, as prepareAudit drives the cache; returns its hits. */
async function run(
  cacheDir: string,
  files: ReadonlyArray<readonly [string, number]>,
  headers: readonly string[],
): Promise<number> {
  const cache = await ScanCache.open(cacheDir, '/workspace', ['stamp']);
  for (const [filePath, tokens] of files) {
    const key = ScanCache.keyFor(filePath, `text of ${filePath}`);
    if (cache.get(key, never) === undefined) cache.set(key, scanned(filePath, tokens));
  }
  for (const header of headers) cache.countHeader(header, (text) => text.length);
  await cache.save();
  return cache.hits;
}

describe('scan cache', () => {
  it('writes nothing when a run used exactly what it held', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-scan-cache-'));
    const files = [
      ['a.ts', 3],
      ['b.ts', 4],
    ] as const;
    expect(await run(cacheDir, files, ['## a.ts'])).toBe(0);
    mark(cacheDir);
    expect(await run(cacheDir, files, ['## a.ts'])).toBe(2);
    expect(isMarked(cacheDir)).toBe(true);
  });

  it.each([
    ['a file gone', [['a.ts', 3]], ['## a.ts']],
    [
      'a file added',
      [
        ['a.ts', 3],
        ['b.ts', 4],
        ['c.ts', 5],
      ],
      ['## a.ts'],
    ],
    [
      'a header gone',
      [
        ['a.ts', 3],
        ['b.ts', 4],
      ],
      [],
    ],
    [
      'a header added',
      [
        ['a.ts', 3],
        ['b.ts', 4],
      ],
      ['## a.ts', '## b.ts'],
    ],
  ] as const)('writes the file when the run differs: %s', async (_name, files, headers) => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-scan-cache-'));
    const before = [
      ['a.ts', 3],
      ['b.ts', 4],
    ] as const;
    await run(cacheDir, before, ['## a.ts']);
    mark(cacheDir);
    await run(cacheDir, files, headers);
    expect(isMarked(cacheDir)).toBe(false);
    // What it wrote is what the next run finds.
    mark(cacheDir);
    expect(await run(cacheDir, files, headers)).toBe(files.length);
    expect(isMarked(cacheDir)).toBe(true);
  });
});

describe('scan cache seal', () => {
  /** A cache file as an attacker would write it: the entries of the last run, with no redactions. */
  function plant(cacheDir: string, how: 'plain' | 'other-key' | 'other-workspace'): void {
    const data = JSON.stringify(readCache(cacheDir));
    const content =
      how === 'plain'
        ? data
        : how === 'other-key'
          ? CacheSeal.derive(randomBytes(32), 'scan-cache').seal(data, '/workspace')
          : seal.seal(data, '/elsewhere');
    writeFileSync(cacheFile(cacheDir), content);
  }

  it.each(['plain', 'other-key', 'other-workspace'] as const)(
    'ignores a file that does not verify (%s): no hits, a notice, and a sealed file written again',
    async (how) => {
      const cacheDir = mkdtempSync(path.join(tmpdir(), 'oy-scan-cache-'));
      const files = [['a.ts', 3]] as const;
      expect(await run(cacheDir, files, [])).toBe(0);
      expect(await run(cacheDir, files, [])).toBe(1);
      plant(cacheDir, how);
      const notices: string[] = [];
      const cache = await ScanCache.open(cacheDir, '/workspace', ['stamp'], Date.now(), {
        onNotice: (text) => notices.push(text),
      });
      expect(cache.get(ScanCache.keyFor('a.ts', 'text of a.ts'), never)).toBeUndefined();
      expect(notices).toEqual([
        expect.stringMatching(
          how === 'plain'
            ? /has no seal: ignored, every file is read and scanned again$/
            : /does not verify under this user's state key: ignored/,
        ),
      ]);
      cache.set(ScanCache.keyFor('a.ts', 'text of a.ts'), scanned('a.ts', 3));
      await cache.save();
      expect(await run(cacheDir, files, [])).toBe(1);
    },
  );
});
