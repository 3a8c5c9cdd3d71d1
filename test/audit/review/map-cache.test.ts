import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_MAP_ENTRY_BYTES,
  MapCache,
  mapCacheKey,
  reduceCacheKey,
  type CachedMapResult,
  type MapCacheKeyInput,
} from '../../../src/audit/review/map-cache.js';
import { pruneMapCache } from '../../../src/audit/review/prune-map-cache.js';
import { CacheSeal } from '../../../src/audit/cache-seal/cache-seal.js';

const BASE_INPUT: MapCacheKeyInput = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  params: { maxTokens: 8000, temperature: 0, reasoningBudget: 2000 },
  promptVersionHash: 'prompt-v1-abc',
  chunkText: '=== src/a.ts ===\nexport const a = 1;\n',
};

function result(label: string, findingCount = 1): CachedMapResult {
  return {
    findings: Array.from({ length: findingCount }, (_, i) => ({ title: `${label} ${i}` })),
    usage: { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 },
    model: 'claude-sonnet-4-5',
    createdAt: '2026-11-22T03:00:00.000Z',
  };
}

function keyOf(n: number): string {
  return mapCacheKey({ ...BASE_INPUT, chunkText: `chunk ${n}` });
}

function entryPath(cacheDir: string, key: string): string {
  return path.join(cacheDir, 'map', key.slice(0, 2), `${key}.json`);
}

async function listFilesDeep(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return names.map(String).sort();
}

let tmp: string;
let cacheDir: string;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'oy-map-cache-'));
  cacheDir = path.join(tmp, 'cache');
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('mapCacheKey', () => {
  it('is a stable sha256 in hex', () => {
    const key = mapCacheKey(BASE_INPUT);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(mapCacheKey({ ...BASE_INPUT })).toBe(key);
    // Pinned: a change here silently invalidates every user's cache, so it must be deliberate.
    expect(key).toBe('e2f60eb64197a5ff76f9adc10c75a7cc3f917912d9af18006da10efb63509866');
  });

  it.each([
    ['provider', { provider: 'openai' }],
    ['model', { model: 'claude-haiku-4-5' }],
    ['max tokens', { params: { ...BASE_INPUT.params, maxTokens: 8001 } }],
    ['temperature', { params: { ...BASE_INPUT.params, temperature: 0.2 } }],
    ['reasoning budget', { params: { ...BASE_INPUT.params, reasoningBudget: 0 } }],
    ['an added parameter', { params: { ...BASE_INPUT.params, topP: 1 } }],
    ['prompt version', { promptVersionHash: 'prompt-v2-abc' }],
    ['chunk text', { chunkText: BASE_INPUT.chunkText.replace('1', '2') }],
    ['a trailing newline', { chunkText: `${BASE_INPUT.chunkText}\n` }],
  ] as const)('changes when the %s changes', (_name, change) => {
    expect(mapCacheKey({ ...BASE_INPUT, ...change })).not.toBe(mapCacheKey(BASE_INPUT));
  });

  it('ignores the key order of params, also nested', () => {
    const reordered = mapCacheKey({
      ...BASE_INPUT,
      params: { reasoningBudget: 2000, temperature: 0, maxTokens: 8000 },
    });
    expect(reordered).toBe(mapCacheKey(BASE_INPUT));
    const nestedA = mapCacheKey({ ...BASE_INPUT, params: { thinking: { type: 'on', budget: 1 } } });
    const nestedB = mapCacheKey({ ...BASE_INPUT, params: { thinking: { budget: 1, type: 'on' } } });
    expect(nestedA).toBe(nestedB);
  });

  it('keeps fields apart: moving text between provider and model changes the key', () => {
    const a = mapCacheKey({ ...BASE_INPUT, provider: 'ab', model: 'c' });
    const b = mapCacheKey({ ...BASE_INPUT, provider: 'a', model: 'bc' });
    expect(a).not.toBe(b);
    const c = mapCacheKey({ ...BASE_INPUT, promptVersionHash: 'p', chunkText: 'xy' });
    const d = mapCacheKey({ ...BASE_INPUT, promptVersionHash: 'px', chunkText: 'y' });
    expect(c).not.toBe(d);
  });
});

describe('MapCache', () => {
  it('misses, then hits after a set, counting both', async () => {
    const cache = MapCache.open(cacheDir);
    const key = keyOf(1);
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, result('one'));
    expect(await cache.get(key)).toEqual(result('one'));
    expect(await cache.get(keyOf(2))).toBeUndefined();
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 2 });
  });

  it('finds what an earlier run stored', async () => {
    await MapCache.open(cacheDir).set(keyOf(1), result('earlier'));
    const rerun = MapCache.open(cacheDir);
    expect(await rerun.get(keyOf(1))).toEqual(result('earlier'));
    expect(rerun.hits).toBe(1);
  });

  it('stores one content-addressed file per key, 0600 in 0700 folders', async () => {
    const key = keyOf(1);
    await MapCache.open(cacheDir).set(key, result('one'));
    const file = entryPath(cacheDir, key);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(cacheDir, 'map'))).mode & 0o777).toBe(0o700);
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700);
    expect(await listFilesDeep(cacheDir)).toEqual([
      'map',
      `map/${key.slice(0, 2)}`,
      `map/${key.slice(0, 2)}/${key}.json`,
    ]);
  });

  it('never stores the chunk text', async () => {
    const key = mapCacheKey(BASE_INPUT);
    await MapCache.open(cacheDir).set(key, result('one'));
    const stored = await readFile(entryPath(cacheDir, key), 'utf8');
    expect(stored).not.toContain('export const a');
    expect(stored).not.toContain('chunkText');
  });

  it('refuses a value that carries chunkText, at any depth, and writes nothing', async () => {
    const cache = MapCache.open(cacheDir);
    const leaky = { ...result('one'), chunkText: 'source' } as CachedMapResult;
    await expect(cache.set(keyOf(1), leaky)).rejects.toThrow(/chunkText/);
    const nested = { ...result('one'), findings: [{ title: 't', chunkText: 'source' }] };
    await expect(cache.set(keyOf(2), nested)).rejects.toThrow(/chunkText/);
    await expect(MapCache.open(null).set(keyOf(3), leaky)).rejects.toThrow(/chunkText/);
    await expect(stat(cacheDir)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a value larger than the cap', async () => {
    const cache = MapCache.open(cacheDir);
    const huge = { ...result('big'), findings: ['x'.repeat(MAX_MAP_ENTRY_BYTES)] };
    await expect(cache.set(keyOf(1), huge)).rejects.toThrow(/at most 1048576 bytes/);
    const justUnder = { ...result('ok'), findings: ['x'.repeat(MAX_MAP_ENTRY_BYTES - 1000)] };
    await cache.set(keyOf(2), justUnder);
    expect(await cache.get(keyOf(2))).toEqual(justUnder);
  });

  it('rejects a key that is not a sha256, so no key can name another path', async () => {
    const cache = MapCache.open(cacheDir);
    await expect(cache.get('../../etc/passwd')).rejects.toThrow(/64 hex digits/);
    await expect(cache.set('AB'.repeat(32), result('x'))).rejects.toThrow(/64 hex digits/);
  });

  it('leaves no temporary file behind', async () => {
    const cache = MapCache.open(cacheDir);
    await Promise.all([1, 2, 3].map((n) => cache.set(keyOf(n), result(`r${n}`))));
    await cache.set(keyOf(1), result('again'));
    const files = await listFilesDeep(cacheDir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(3);
  });

  it('lets a reader during writes see the old or the new entry, never half of one', async () => {
    const cache = MapCache.open(cacheDir);
    const key = keyOf(1);
    // Near the cap, so a write in place would be visible half-done (Node writes it in pieces).
    const versions = ['a', 'b'].map((label) => ({
      ...result(label),
      findings: [label.repeat(900_000)],
    }));
    const expected = new Set<unknown>(versions.map((v) => v.findings[0]));
    await cache.set(key, versions[0]!);
    let isWriting = true;
    const writer = (async () => {
      for (let i = 1; i <= 60; i++) await cache.set(key, versions[i % 2]!);
      isWriting = false;
    })();
    const reader = MapCache.open(cacheDir);
    const seen: unknown[] = [];
    const readUntilDone = async () => {
      while (isWriting) seen.push((await reader.get(key))?.findings[0]);
    };
    await Promise.all([writer, readUntilDone(), readUntilDone(), readUntilDone()]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((value) => !expected.has(value))).toEqual([]);
    expect(reader.misses).toBe(0);
  });

  it('handles many concurrent sets of different keys', async () => {
    const cache = MapCache.open(cacheDir);
    const keys = Array.from({ length: 64 }, (_, n) => keyOf(n));
    await Promise.all(keys.map((key, n) => cache.set(key, result(`r${n}`))));
    const read = MapCache.open(cacheDir);
    const values = await Promise.all(keys.map((key) => read.get(key)));
    expect(values).toEqual(keys.map((_, n) => result(`r${n}`)));
    expect(read.hits).toBe(64);
    expect(cache.writeFailures).toBe(0);
  });

  it.each([
    ['not JSON', 'not json {'],
    ['truncated JSON', '{"version":1,"key":"'],
    ['the wrong shape', JSON.stringify({ version: 1, result: { findings: 'no' } })],
    ['an older version', JSON.stringify({ version: 0, result: result('old') })],
    ['a negative token count', 'NEGATIVE'],
    ['another key', 'OTHER_KEY'],
  ])('treats an entry with %s as a miss', async (_name, content) => {
    const key = keyOf(1);
    const file = entryPath(cacheDir, key);
    await mkdir(path.dirname(file), { recursive: true });
    const bad = { ...result('x'), usage: { ...result('x').usage, inputTokens: -1 } };
    const body =
      content === 'NEGATIVE'
        ? JSON.stringify({ version: 1, key, result: bad })
        : content === 'OTHER_KEY'
          ? JSON.stringify({ version: 1, key: keyOf(2), result: result('x') })
          : content;
    // Sealed as this process's caches are, so each shape is judged after the seal checks out.
    await writeFile(file, CacheSeal.derive(undefined, 'map-cache').seal(body, key));
    const cache = MapCache.open(cacheDir);
    expect(await cache.get(key)).toBeUndefined();
    expect({ hits: cache.hits, misses: cache.misses, rejected: cache.rejected }).toEqual({
      hits: 0,
      misses: 1,
      rejected: 0,
    });
  });

  describe('seals', () => {
    const stateKey = randomBytes(32);
    const sealed = () => MapCache.open(cacheDir, { seal: CacheSeal.derive(stateKey, 'map-cache') });

    it('reads back what this state key sealed, from another process as well', async () => {
      await sealed().set(keyOf(1), result('kept'));
      const reader = sealed();
      expect(await reader.get(keyOf(1))).toEqual(result('kept'));
      expect(reader.hits).toBe(1);
    });

    it.each([
      ['an entry planted with no seal', 'plain'],
      ['an entry sealed under another state key (another job or machine)', 'other-key'],
      ['an entry sealed for another key, moved into place', 'moved'],
      ['an entry whose findings were edited after sealing', 'edited'],
    ])('ignores %s, says so, and counts a miss', async (_name, how) => {
      const key = keyOf(1);
      const file = entryPath(cacheDir, key);
      await mkdir(path.dirname(file), { recursive: true });
      // What a poisoned entry wants: the chunk marked reviewed with nothing found.
      const body = JSON.stringify({ version: 2, key, result: result('planted', 0) });
      const content =
        how === 'plain'
          ? body
          : how === 'other-key'
            ? CacheSeal.derive(randomBytes(32), 'map-cache').seal(body, key)
            : how === 'moved'
              ? CacheSeal.derive(stateKey, 'map-cache').seal(body, keyOf(2))
              : CacheSeal.derive(stateKey, 'map-cache')
                  .seal(JSON.stringify({ version: 2, key, result: result('real') }), key)
                  .replace('"real 0"', '"edit 0"');
      await writeFile(file, content);
      const notices: string[] = [];
      const cache = MapCache.open(cacheDir, {
        seal: CacheSeal.derive(stateKey, 'map-cache'),
        onNotice: (text) => notices.push(text),
      });
      expect(await cache.get(key)).toBeUndefined();
      expect({ hits: cache.hits, misses: cache.misses, rejected: cache.rejected }).toEqual({
        hits: 0,
        misses: 1,
        rejected: 1,
      });
      expect(notices).toEqual([expect.stringMatching(/ignored, the chunk is reviewed again$/)]);
    });
  });

  it('treats an unreadable entry as a miss', async () => {
    const key = keyOf(1);
    // A folder where the file should be: reading it fails with EISDIR.
    await mkdir(entryPath(cacheDir, key), { recursive: true });
    const cache = MapCache.open(cacheDir);
    expect(await cache.get(key)).toBeUndefined();
    expect(cache.misses).toBe(1);
  });

  it('counts a failed write instead of throwing, so the audit goes on', async () => {
    const key = keyOf(1);
    await mkdir(path.join(cacheDir, 'map'), { recursive: true });
    // A file where the shard folder should be: mkdir fails with EEXIST/ENOTDIR.
    await writeFile(path.join(cacheDir, 'map', key.slice(0, 2)), '');
    const cache = MapCache.open(cacheDir);
    await cache.set(key, result('one'));
    expect(cache.writeFailures).toBe(1);
    expect(await cache.get(key)).toBeUndefined();
  });

  it('with no cache directory, misses every get and writes nothing', async () => {
    const cache = MapCache.open(null);
    await cache.set(keyOf(1), result('one'));
    expect(await cache.get(keyOf(1))).toBeUndefined();
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 0, misses: 1 });
    expect(await readdir(tmp)).toEqual([]);
  });
});

describe('pruneMapCache', () => {
  const NOW = new Date('2026-11-22T00:00:00.000Z');
  const DAY_MS = 24 * 60 * 60 * 1000;

  async function storeAged(n: number, ageDays: number, findingBytes = 1000): Promise<string> {
    const key = keyOf(n);
    await MapCache.open(cacheDir).set(key, {
      ...result(`r${n}`),
      findings: ['x'.repeat(findingBytes)],
    });
    const when = new Date(NOW.getTime() - ageDays * DAY_MS);
    await utimes(entryPath(cacheDir, key), when, when);
    return key;
  }

  async function exists(key: string): Promise<boolean> {
    return stat(entryPath(cacheDir, key)).then(
      () => true,
      () => false,
    );
  }

  it('removes entries older than maxAgeDays', async () => {
    const fresh = await storeAged(1, 1);
    const old = await storeAged(2, 40);
    const outcome = await pruneMapCache(cacheDir, { maxAgeDays: 30, maxBytes: 1e9, now: NOW });
    expect(await exists(fresh)).toBe(true);
    expect(await exists(old)).toBe(false);
    expect(outcome).toMatchObject({ removedEntries: 1, keptEntries: 1 });
    // The emptied shard folder went with it.
    await expect(stat(path.dirname(entryPath(cacheDir, old)))).rejects.toThrow(/ENOENT/);
  });

  it('removes the least recently used entries beyond maxBytes', async () => {
    const newest = await storeAged(1, 1);
    const middle = await storeAged(2, 2);
    const oldest = await storeAged(3, 3);
    const size = (await stat(entryPath(cacheDir, newest))).size;
    const outcome = await pruneMapCache(cacheDir, {
      maxAgeDays: 30,
      maxBytes: size * 2 + 10,
      now: NOW,
    });
    expect([await exists(newest), await exists(middle), await exists(oldest)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(outcome.keptBytes).toBeLessThanOrEqual(size * 2 + 10);
    expect(outcome.removedEntries).toBe(1);
  });

  it('removes every older entry once one does not fit, even a smaller one', async () => {
    const newest = await storeAged(1, 1, 1000);
    const big = await storeAged(2, 2, 50_000);
    const smallOld = await storeAged(3, 3, 10);
    await pruneMapCache(cacheDir, { maxAgeDays: 30, maxBytes: 20_000, now: NOW });
    expect([await exists(newest), await exists(big), await exists(smallOld)]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('keeps an entry a cache hit has just used', async () => {
    const used = await storeAged(1, 40);
    const unused = await storeAged(2, 40);
    await MapCache.open(cacheDir).get(used);
    await pruneMapCache(cacheDir, { maxAgeDays: 30, maxBytes: 1e9 });
    expect([await exists(used), await exists(unused)]).toEqual([true, false]);
  });

  it('removes stale temporary files, and leaves files it does not own alone', async () => {
    const key = await storeAged(1, 1);
    const shard = path.dirname(entryPath(cacheDir, key));
    const staleTemp = path.join(shard, `.${key}.json.abcdef012345.tmp`);
    const freshTemp = path.join(shard, `.${keyOf(9)}.json.abcdef012345.tmp`);
    const stranger = path.join(shard, 'notes.txt');
    for (const file of [staleTemp, freshTemp, stranger]) await writeFile(file, 'x');
    const hourAgo = new Date(NOW.getTime() - 2 * 60 * 60 * 1000);
    await utimes(staleTemp, hourAgo, hourAgo);
    await utimes(freshTemp, NOW, NOW);
    await pruneMapCache(cacheDir, { maxAgeDays: 0, maxBytes: 0, now: NOW });
    const left = (await readdir(shard)).sort();
    expect(left).toEqual([path.basename(freshTemp), 'notes.txt'].sort());
  });

  it('does nothing without a cache directory or with an empty one', async () => {
    const empty = { removedEntries: 0, removedBytes: 0, keptEntries: 0, keptBytes: 0 };
    expect(await pruneMapCache(null, { maxAgeDays: 1, maxBytes: 1 })).toEqual(empty);
    expect(await pruneMapCache(cacheDir, { maxAgeDays: 1, maxBytes: 1 })).toEqual(empty);
  });

  it('rejects negative or non-finite limits', async () => {
    await expect(pruneMapCache(cacheDir, { maxAgeDays: -1, maxBytes: 1 })).rejects.toThrow(
      /maxAgeDays must be a number of at least 0, got -1/,
    );
    await expect(pruneMapCache(cacheDir, { maxAgeDays: 1, maxBytes: NaN })).rejects.toThrow(
      /maxBytes/,
    );
  });
});

describe('reduce entries', () => {
  const reduceInput = {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    params: { maxTokens: 4096 },
    promptVersionHash: 'prompt-v1-abc',
    system: 'You are the final editor.',
    user: '1 findings',
  };
  const answer = {
    answer: { summary: 'Fix F1.', order: ['F1'], merge: [] },
    usage: { inputTokens: 900, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 },
    model: 'claude-sonnet-4-5',
    createdAt: '2026-11-22T03:00:00.000Z',
  };

  it('round-trip under their own keys, never read as a map result or the other way round', async () => {
    const key = reduceCacheKey(reduceInput);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // The same text as a chunk gives another key: the `reduce` tag keeps them apart.
    expect(key).not.toBe(mapCacheKey({ ...BASE_INPUT, chunkText: reduceInput.user }));
    expect(reduceCacheKey({ ...reduceInput, user: '2 findings' })).not.toBe(key);
    expect(reduceCacheKey({ ...reduceInput, system: 'Another brief.' })).not.toBe(key);
    const cache = MapCache.open(cacheDir);
    await cache.setReduce(key, answer);
    expect(await cache.getReduce(key)).toEqual(answer);
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(keyOf(1), result('a'));
    expect(await cache.getReduce(keyOf(1))).toBeUndefined();
  });

  it('are sealed like map entries: one sealed under another key is ignored', async () => {
    const key = reduceCacheKey(reduceInput);
    await MapCache.open(cacheDir, {
      seal: CacheSeal.derive(randomBytes(32), 'map-cache'),
    }).setReduce(key, answer);
    const notices: string[] = [];
    const cache = MapCache.open(cacheDir, {
      seal: CacheSeal.derive(randomBytes(32), 'map-cache'),
      onNotice: (text) => notices.push(text),
    });
    expect(await cache.getReduce(key)).toBeUndefined();
    expect(notices).toEqual([expect.stringMatching(/ignored, the reduce call is made again$/)]);
  });

  it('a read-only cache (the estimate) writes nothing and leaves the use time alone', async () => {
    const key = reduceCacheKey(reduceInput);
    const seal = CacheSeal.derive(randomBytes(32), 'map-cache');
    await MapCache.open(cacheDir, { seal }).setReduce(key, answer);
    const old = new Date('2026-01-01T00:00:00Z');
    await utimes(entryPath(cacheDir, key), old, old);
    const readOnly = MapCache.open(cacheDir, { seal, isReadOnly: true });
    expect(await readOnly.getReduce(key)).toEqual(answer);
    expect((await stat(entryPath(cacheDir, key))).mtime).toEqual(old);
    await readOnly.set(keyOf(2), result('b'));
    await expect(stat(entryPath(cacheDir, keyOf(2)))).rejects.toThrow();
  });
});
