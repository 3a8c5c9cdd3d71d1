import { createHash } from 'node:crypto';
import { readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Usage } from '../../providers/types.js';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';
import { CacheSeal } from '../cache-seal/cache-seal.js';

/** Bump when the stored shape or the meaning of a key changes; older entries then read as misses (2: sealed). */
const MAP_CACHE_VERSION = 2;
/** Sub-folder of the cache directory that holds map results. */
export const MAP_CACHE_SUBDIR = 'map';
/** 1 MiB: a map answer is a few KiB of findings, so anything near this is not one and is refused. */
export const MAX_MAP_ENTRY_BYTES = 1024 * 1024;
/** A key is a sha256 in hex; checked before it becomes a path, so no key can name another file. */
export const MAP_CACHE_KEY = /^[0-9a-f]{64}$/;

/** A cached reduce answer: the model's ranking and summary of redacted findings, never source text. */
export interface CachedReduceResult {
  answer: { summary: string | null; order: string[]; merge: string[][] };
  usage: Usage;
  model: string;
  createdAt: string;
}

/**
 * One cached map call. It holds only the model's output about redacted text, never source text:
 * `set` refuses any value with a `chunkText` field, at any depth, or larger than MAX_MAP_ENTRY_BYTES.
 */
export interface CachedMapResult {
  findings: unknown[];
  usage: Usage;
  model: string;
  createdAt: string;
}

export interface MapCacheKeyInput {
  provider: string;
  model: string;
  /** Request parameters that change the answer: max tokens, temperature, reasoning budget. */
  params: Record<string, unknown>;
  promptVersionHash: string;
  /** The exact (redacted) chunk text the model sees; hashed, never stored. */
  chunkText: string;
}

const tokenCount = z.number().int().nonnegative();
const usageSchema = z.object({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  cacheReadTokens: tokenCount,
  cacheWriteTokens: tokenCount,
});
const storedEntry = z.object({
  version: z.literal(MAP_CACHE_VERSION),
  key: z.string(),
  result: z.object({
    findings: z.array(z.unknown()),
    usage: usageSchema,
    model: z.string(),
    createdAt: z.string(),
  }),
});
const storedReduceEntry = z.object({
  version: z.literal(MAP_CACHE_VERSION),
  kind: z.literal('reduce'),
  key: z.string(),
  result: z.object({
    answer: z.object({
      summary: z.string().nullable(),
      order: z.array(z.string()),
      merge: z.array(z.array(z.string())),
    }),
    usage: usageSchema,
    model: z.string(),
    createdAt: z.string(),
  }),
});

export interface ReduceCacheKeyInput {
  provider: string;
  model: string;
  params: Record<string, unknown>;
  promptVersionHash: string;
  /** The exact system and (redacted) user text of the reduce call; hashed, never stored. */
  system: string;
  user: string;
}

/** The cache key of one map call: sha256 over everything that changes the answer; the key order of `params` does not matter. */
export function mapCacheKey(input: MapCacheKeyInput): string {
  const header = JSON.stringify([
    MAP_CACHE_VERSION,
    input.provider,
    input.model,
    sortKeys(input.params),
    input.promptVersionHash,
  ]);
  // JSON never holds a raw NUL, so the separator keeps header and chunk text apart.
  return createHash('sha256').update(header).update('\0').update(input.chunkText).digest('hex');
}

/**
 * The cache key of the reduce call, in the same store as the map results: the `reduce` tag keeps
 * its keys apart from every map key, and system and user text are hashed as one JSON array.
 */
export function reduceCacheKey(input: ReduceCacheKeyInput): string {
  const header = JSON.stringify([
    MAP_CACHE_VERSION,
    'reduce',
    input.provider,
    input.model,
    sortKeys(input.params),
    input.promptVersionHash,
  ]);
  return createHash('sha256')
    .update(header)
    .update('\0')
    .update(JSON.stringify([input.system, input.user]))
    .digest('hex');
}

export interface MapCacheOptions {
  /** Seals each entry under the user's state key; absent, a key for this process alone (nothing on disk verifies). */
  seal?: CacheSeal;
  /** Told when an entry is there but does not verify, and so is ignored (`--verbose`). */
  onNotice?: (text: string) => void;
  /** Looks only (`--dry-run`'s estimate): a hit does not mark the entry as used. */
  isReadOnly?: boolean;
}

/**
 * Map results on disk, one file per key (`<cacheDir>/map/<key[0..2]>/<key>.json`, 0600 files in
 * 0700 folders), each written atomically, so concurrent calls never clash and a killed run keeps
 * every result it finished. Each entry is sealed with its key (`CacheSeal`): one that does not verify
 * could hold findings nobody asked the model for, or none, so it is ignored and the chunk reviewed
 * again. A missing, corrupt, unreadable or unverified entry is a miss, never an error.
 */
export class MapCache {
  hits = 0;
  misses = 0;
  /** Entries that were there but did not verify: counted among the misses too. */
  rejected = 0;
  /** Results that could not be written (full disk, no permission); the audit goes on without them. */
  writeFailures = 0;

  private constructor(
    private readonly dir: string | null,
    private readonly seal: CacheSeal,
    private readonly onNotice: ((text: string) => void) | undefined,
    private readonly isReadOnly: boolean,
  ) {}

  /** `null` (`--no-cache`): every get is a miss and every set does nothing. */
  static open(cacheDir: string | null, options: MapCacheOptions = {}): MapCache {
    return new MapCache(
      cacheDir === null ? null : path.join(cacheDir, MAP_CACHE_SUBDIR),
      options.seal ?? CacheSeal.derive(undefined, 'map-cache'),
      options.onNotice,
      options.isReadOnly === true,
    );
  }

  async get(key: string): Promise<CachedMapResult | undefined> {
    return this.read(
      key,
      (value) => {
        const parsed = storedEntry.safeParse(value);
        return parsed.success && parsed.data.key === key ? parsed.data.result : undefined;
      },
      'the chunk is reviewed again',
    );
  }

  /** The cached reduce answer under `key` (`reduceCacheKey`), read and verified like a map entry. */
  async getReduce(key: string): Promise<CachedReduceResult | undefined> {
    return this.read(
      key,
      (value) => {
        const parsed = storedReduceEntry.safeParse(value);
        return parsed.success && parsed.data.key === key ? parsed.data.result : undefined;
      },
      'the reduce call is made again',
    );
  }

  /** Stores a whole reduce answer; the same checks as `set`. */
  async setReduce(key: string, value: CachedReduceResult): Promise<void> {
    await this.write(key, serializeEntry(key, value, 'reduce'));
  }

  private async read<T>(
    key: string,
    accept: (value: unknown) => T | undefined,
    /** What the notice says happens instead of a hit. */
    redo: string,
  ): Promise<T | undefined> {
    const file = this.entryPath(key);
    if (file === null) {
      this.misses++;
      return undefined;
    }
    let result: T | undefined;
    try {
      const opened = this.seal.open(await readFile(file), key);
      if ('problem' in opened) {
        this.rejected++;
        this.onNotice?.(
          `map cache entry ${file} ${opened.problem === 'unsealed' ? 'has no seal' : "has a seal that does not verify under this user's state key"}: ignored, ${redo}`,
        );
      } else result = accept(JSON.parse(opened.text));
    } catch {
      // Missing, unreadable or not JSON: a miss.
    }
    if (result === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    if (this.isReadOnly) return result;
    // Marks the entry as recently used, so pruning removes the least recently used first.
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return result;
  }

  /** Stores a result; rejects a value that carries source text or is too large, and counts (not throws) a failed write. */
  async set(key: string, value: CachedMapResult): Promise<void> {
    await this.write(key, serializeEntry(key, value));
  }

  private async write(key: string, text: string): Promise<void> {
    const file = this.entryPath(key);
    const data = this.seal.seal(text, key);
    if (file === null || this.isReadOnly) return;
    try {
      await writeFileAtomic(file, data, { mode: 0o600, dirMode: 0o700 });
    } catch {
      this.writeFailures++;
    }
  }

  private entryPath(key: string): string | null {
    if (!MAP_CACHE_KEY.test(key)) {
      throw new TypeError(`map cache key must be 64 hex digits, got ${JSON.stringify(key)}`);
    }
    return this.dir === null ? null : path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}

function serializeEntry(
  key: string,
  value: CachedMapResult | CachedReduceResult,
  kind?: 'reduce',
): string {
  const entry = { version: MAP_CACHE_VERSION, ...(kind ? { kind } : {}), key, result: value };
  const data = JSON.stringify(entry, (name, field) => {
    if (name === 'chunkText') {
      throw new TypeError(
        'a cached map result must not carry chunkText: the cache holds no source',
      );
    }
    return field as unknown;
  });
  if (Buffer.byteLength(data) > MAX_MAP_ENTRY_BYTES) {
    throw new RangeError(
      `a cached map result must be at most ${MAX_MAP_ENTRY_BYTES} bytes, got ${Buffer.byteLength(data)}`,
    );
  }
  return data;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([name, field]) => [name, sortKeys(field)]));
}
