import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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

/** Adds a field the cache ignores on reading and drops on writing: it survives only if nothing wrote. */
function mark(cacheDir: string): void {
  const file = cacheFile(cacheDir);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), mark: true }));
}

function isMarked(cacheDir: string): boolean {
  return JSON.parse(readFileSync(cacheFile(cacheDir), 'utf8')).mark === true;
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
