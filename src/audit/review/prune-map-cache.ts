import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { MAP_CACHE_SUBDIR } from './map-cache.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** 1 hour: a temporary file this old belongs to a write that was killed, never to one in progress. */
const STALE_TEMP_MS = 60 * 60 * 1000;
const SHARD = /^[0-9a-f]{2}$/;
const ENTRY = /^[0-9a-f]{64}\.json$/;
const TEMP = /^\.[0-9a-f]{64}\.json\.[0-9a-f]+\.tmp$/;

export interface PruneMapCacheLimits {
  /** Entries not used for longer than this are removed. */
  maxAgeDays: number;
  /** Then the least recently used entries are removed until the rest fit in this many bytes. */
  maxBytes: number;
  /** The clock, for tests. */
  now?: Date;
}

export interface PruneMapCacheResult {
  removedEntries: number;
  removedBytes: number;
  keptEntries: number;
  keptBytes: number;
}

interface Entry {
  file: string;
  bytes: number;
  usedMs: number;
}

/**
 * Deletes map cache entries older than `maxAgeDays`, then the oldest ones beyond `maxBytes`
 * (age is the last use: a cache hit refreshes it), and temporary files left by killed writes.
 * Only files the cache itself names are touched; links and anything else are left alone.
 */
export async function pruneMapCache(
  cacheDir: string | null,
  limits: PruneMapCacheLimits,
): Promise<PruneMapCacheResult> {
  checkLimit('maxAgeDays', limits.maxAgeDays);
  checkLimit('maxBytes', limits.maxBytes);
  const result: PruneMapCacheResult = {
    removedEntries: 0,
    removedBytes: 0,
    keptEntries: 0,
    keptBytes: 0,
  };
  if (cacheDir === null) return result;
  const nowMs = (limits.now ?? new Date()).getTime();
  const root = path.join(cacheDir, MAP_CACHE_SUBDIR);
  const entries: Entry[] = [];
  for (const shard of await listNames(root)) {
    if (!SHARD.test(shard)) continue;
    const shardDir = path.join(root, shard);
    for (const name of await listNames(shardDir)) {
      const file = path.join(shardDir, name);
      const stats = await lstat(file).catch(() => undefined);
      if (stats === undefined || !stats.isFile()) continue;
      if (ENTRY.test(name)) {
        entries.push({ file, bytes: stats.size, usedMs: stats.mtimeMs });
      } else if (TEMP.test(name) && nowMs - stats.mtimeMs > STALE_TEMP_MS) {
        await rm(file, { force: true });
      }
    }
  }

  entries.sort((a, b) => b.usedMs - a.usedMs || (a.file < b.file ? -1 : 1));
  const maxAgeMs = limits.maxAgeDays * DAY_MS;
  const removedDirs = new Set<string>();
  let isFull = false;
  for (const entry of entries) {
    // Newest first: once one entry does not fit, every older one goes too.
    isFull ||= nowMs - entry.usedMs > maxAgeMs || result.keptBytes + entry.bytes > limits.maxBytes;
    if (!isFull) {
      result.keptEntries++;
      result.keptBytes += entry.bytes;
      continue;
    }
    await rm(entry.file, { force: true });
    removedDirs.add(path.dirname(entry.file));
    result.removedEntries++;
    result.removedBytes += entry.bytes;
  }
  // An emptied shard folder goes too; one still in use (or refilled meanwhile) stays.
  for (const dir of removedDirs) await rmdir(dir).catch(() => undefined);
  return result;
}

async function listNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

function checkLimit(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a number of at least 0, got ${value}`);
  }
}
