import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';
import { CacheSeal } from '../cache-seal/cache-seal.js';
import type { FileIdentity } from '../collect/file-identity.js';
import type { SkipReason } from '../types.js';
import type { ScannedFile } from './scanned-file.js';

/** Bump when the cached shape or any scan rule changes meaning (11: estimated counts for files out of scope). */
const SCAN_CACHE_VERSION = 11;

/**
 * A file changed this close to the start of the run that read it may change again within the
 * same clock tick, so its identity is not remembered (git's "racily clean" rule). Two seconds
 * covers the coarsest timestamps in use (FAT's).
 */
export const RACY_WINDOW_MS = 2000;

type CachedScan = Omit<ScannedFile, 'size' | 'isTracked'>;

interface CacheFile {
  stamp: string;
  entries: Record<string, CachedScan>;
  /** Token counts of chunk header lines, so a fully cached run never loads the tokenizer. */
  headerTokens?: Record<string, number>;
  /** Per path, the identity of the version last read and its entry's key. */
  files?: Record<string, KnownFile>;
}

/**
 * [identity key, entry key], or for a file the content checks skip, [identity key, '', reason,
 * detail]: the same bytes always get the same verdict.
 */
type KnownFile = [string, string] | [string, '', SkipReason, string | null];

/** The content checks' verdict on a file that was skipped, remembered by its identity. */
export interface KnownSkip {
  reason: SkipReason;
  detail?: string;
}

export interface ScanCacheOptions {
  /** Seals the file under the user's state key; absent, a key for this process alone (nothing on disk verifies). */
  seal?: CacheSeal;
  /** Told when a cache file is there but does not verify, and so is ignored (`--verbose`). */
  onNotice?: (text: string) => void;
}

interface CacheContents {
  entries: Record<string, CachedScan>;
  headerTokens: Record<string, number>;
  files: Record<string, KnownFile>;
}

/**
 * Per-workspace cache of scan results keyed by a hash of path and raw content, so a rerun skips
 * unchanged files; a file whose identity is as last read is not even read.
 */
export class ScanCache {
  private readonly used = new Map<string, CachedScan>();
  private readonly usedHeaders = new Map<string, number>();
  private readonly usedFiles = new Map<string, KnownFile>();
  /** Whether this run added anything the file lacks; what it dropped shows in the sizes. */
  private isChanged = false;
  hits = 0;
  /** Hits found by identity, without reading the file. */
  unreadHits = 0;

  private constructor(
    private readonly filePath: string | null,
    private readonly stamp: string,
    private readonly contents: CacheContents,
    /** When this run started: identities changed since `RACY_WINDOW_MS` before it are not kept. */
    private readonly startedMs: number,
    private readonly seal: CacheSeal,
    /** The workspace the file belongs to, bound into its seal. */
    private readonly root: string,
  ) {}

  /**
   * Opens the cache for a workspace; a missing, stale or corrupt file is an empty cache, and so is one
   * whose seal does not verify: its entries could claim a file holds no secret, so none is trusted.
   */
  static async open(
    cacheDir: string | null,
    root: string,
    stampParts: string[],
    startedMs = Date.now(),
    options: ScanCacheOptions = {},
  ): Promise<ScanCache> {
    const stamp = [SCAN_CACHE_VERSION, ...stampParts].join('|');
    const seal = options.seal ?? CacheSeal.derive(undefined, 'scan-cache');
    const empty = (): CacheContents => ({ entries: {}, headerTokens: {}, files: {} });
    if (cacheDir === null) return new ScanCache(null, stamp, empty(), startedMs, seal, root);
    const name = createHash('sha256').update(root).digest('hex').slice(0, 24);
    const filePath = path.join(cacheDir, 'scan', `${name}.json`);
    const contents = await readContents(filePath, stamp, root, seal, options.onNotice);
    return new ScanCache(filePath, stamp, contents ?? empty(), startedMs, seal, root);
  }

  /** The entry's key: a file's path and its content, as bytes or as the text they decode to. */
  static keyFor(filePath: string, content: string | Uint8Array): string {
    return createHash('sha256').update(filePath).update('\0').update(content).digest('base64url');
  }

  /**
   * A hit, unless the entry holds an estimated count where this run needs an exact one
   * (`needsExactTokens`, every path when absent), or an exact count without the per-line counts a
   * file this large needs.
   */
  get(
    key: string,
    needsLineTokens: (path: string, tokens: number) => boolean,
    needsExactTokens?: (path: string) => boolean,
  ): CachedScan | undefined {
    const entry = Object.hasOwn(this.contents.entries, key)
      ? this.contents.entries[key]
      : undefined;
    if (!entry) return undefined;
    // An estimate serves only a run that sends the file nowhere, which needs no per-line counts.
    if (entry.isTokenEstimate === true) {
      if (needsExactTokens?.(entry.path) ?? true) return undefined;
    } else if (!entry.lineTokens && needsLineTokens(entry.path, entry.tokens)) return undefined;
    this.hits++;
    this.used.set(key, entry);
    return entry;
  }

  /**
   * What the last run found in a file whose identity is the one it read then, so it need not be
   * read again: its entry, or the content checks' skip verdict.
   */
  findUnread(
    filePath: string,
    identity: string,
    needsLineTokens: (path: string, tokens: number) => boolean,
    needsExactTokens?: (path: string) => boolean,
  ): { scanned: CachedScan } | { skip: KnownSkip } | undefined {
    const known = this.knownFile(filePath);
    if (known?.[0] !== identity) return undefined;
    let found: { scanned: CachedScan } | { skip: KnownSkip };
    if (known[1] === '') {
      // The second field is empty only in a skip's row.
      const [, , reason, detail] = known as [string, '', SkipReason, string | null];
      found = { skip: detail === null ? { reason } : { reason, detail } };
    } else {
      const entry = this.get(known[1], needsLineTokens, needsExactTokens);
      if (entry === undefined) return undefined;
      found = { scanned: entry };
    }
    this.unreadHits++;
    this.usedFiles.set(filePath, known);
    return found;
  }

  set(key: string, scanned: ScannedFile): void {
    const { size: _size, isTracked: _isTracked, ...entry } = scanned;
    this.used.set(key, entry);
    this.isChanged = true;
  }

  /**
   * Remembers the identity of the version whose bytes gave the entry at `key`, unless that
   * version is too recent to be told apart from a change in the same clock tick.
   */
  noteRead(filePath: string, identity: FileIdentity, key: string): void {
    this.note(filePath, identity, [identity.key, key]);
  }

  /** Remembers that the content checks skipped this version of the file, and why. */
  noteSkip(filePath: string, identity: FileIdentity, skip: KnownSkip): void {
    this.note(filePath, identity, [identity.key, '', skip.reason, skip.detail ?? null]);
  }

  /** The row the cache file holds for a path (an own key: a path may be named `__proto__`). */
  private knownFile(filePath: string): KnownFile | undefined {
    return Object.hasOwn(this.contents.files, filePath) ? this.contents.files[filePath] : undefined;
  }

  private note(filePath: string, identity: FileIdentity, row: KnownFile): void {
    if (identity.changedMs > this.startedMs - RACY_WINDOW_MS) return;
    const known = this.knownFile(filePath);
    const isSame = known?.length === row.length && row.every((field, at) => known[at] === field);
    if (!isSame) this.isChanged = true;
    this.usedFiles.set(filePath, row);
  }

  /** Counts a chunk header line, from the cache when an earlier run counted it. */
  countHeader(header: string, count: (text: string) => number): number {
    let tokens = this.usedHeaders.get(header) ?? this.contents.headerTokens[header];
    if (tokens === undefined) {
      tokens = count(header);
      this.isChanged = true;
    }
    this.usedHeaders.set(header, tokens);
    return tokens;
  }

  /**
   * Writes back only the entries this run used, so files that are gone drop out; a run that used
   * exactly what the file held (a warm run over an unchanged tree) writes nothing.
   */
  async save(): Promise<void> {
    if (this.filePath === null) return;
    const isSame =
      !this.isChanged &&
      this.used.size === Object.keys(this.contents.entries).length &&
      this.usedHeaders.size === Object.keys(this.contents.headerTokens).length &&
      this.usedFiles.size === Object.keys(this.contents.files).length;
    if (isSame) return;
    const data: CacheFile = {
      stamp: this.stamp,
      entries: Object.fromEntries(this.used),
      headerTokens: Object.fromEntries(this.usedHeaders),
      files: Object.fromEntries(this.usedFiles),
    };
    await writeFileAtomic(this.filePath, this.seal.seal(JSON.stringify(data), this.root), {
      mode: 0o600,
      dirMode: 0o700,
    });
  }
}

/** The file's contents when its seal checks out and its stamp is this run's; undefined otherwise. */
async function readContents(
  filePath: string,
  stamp: string,
  root: string,
  seal: CacheSeal,
  onNotice: ((text: string) => void) | undefined,
): Promise<CacheContents | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch {
    return undefined; // No cache yet, or an unreadable one: start empty.
  }
  const opened = seal.open(bytes, root);
  if ('problem' in opened) {
    onNotice?.(
      `scan cache ${filePath} ${opened.problem === 'unsealed' ? 'has no seal' : "has a seal that does not verify under this user's state key"}: ignored, every file is read and scanned again`,
    );
    return undefined;
  }
  try {
    const parsed = JSON.parse(opened.text) as CacheFile;
    if (parsed.stamp !== stamp || typeof parsed.entries !== 'object') return undefined;
    return {
      entries: parsed.entries,
      headerTokens: parsed.headerTokens ?? {},
      files: parsed.files ?? {},
    };
  } catch {
    return undefined;
  }
}
