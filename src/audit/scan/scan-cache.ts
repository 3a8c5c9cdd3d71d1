import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';
import type { ScannedFile } from './scanned-file.js';

/** Bump when the cached shape or any scan rule changes meaning. */
const SCAN_CACHE_VERSION = 5;

type CachedScan = Omit<ScannedFile, 'size' | 'isTracked'>;

interface CacheFile {
  stamp: string;
  entries: Record<string, CachedScan>;
  /** Token counts of chunk header lines, so a fully cached run never loads the tokenizer. */
  headerTokens?: Record<string, number>;
}

/** Per-workspace cache of scan results keyed by a hash of path and raw content, so a rerun skips unchanged files. */
export class ScanCache {
  private readonly used = new Map<string, CachedScan>();
  private readonly usedHeaders = new Map<string, number>();
  /** Whether this run added anything the file lacks; what it dropped shows in the sizes. */
  private isChanged = false;
  hits = 0;

  private constructor(
    private readonly filePath: string | null,
    private readonly stamp: string,
    private readonly entries: Record<string, CachedScan>,
    private readonly headerTokens: Record<string, number> = {},
  ) {}

  /** Opens the cache for a workspace; a missing, stale or corrupt file is an empty cache. */
  static async open(
    cacheDir: string | null,
    root: string,
    stampParts: string[],
  ): Promise<ScanCache> {
    const stamp = [SCAN_CACHE_VERSION, ...stampParts].join('|');
    if (cacheDir === null) return new ScanCache(null, stamp, {});
    const name = createHash('sha256').update(root).digest('hex').slice(0, 24);
    const filePath = path.join(cacheDir, 'scan', `${name}.json`);
    try {
      const parsed = JSON.parse(await readFile(filePath, 'utf8')) as CacheFile;
      if (parsed.stamp === stamp && typeof parsed.entries === 'object') {
        return new ScanCache(filePath, stamp, parsed.entries, parsed.headerTokens ?? {});
      }
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
    return new ScanCache(filePath, stamp, {});
  }

  /** The entry's key: a file's path and its content, as bytes or as the text they decode to. */
  static keyFor(filePath: string, content: string | Uint8Array): string {
    return createHash('sha256').update(filePath).update('\0').update(content).digest('base64url');
  }

  /** A hit, unless the entry lacks the per-line counts a file this large needs. */
  get(
    key: string,
    needsLineTokens: (path: string, tokens: number) => boolean,
  ): CachedScan | undefined {
    const entry = this.entries[key];
    if (!entry || (!entry.lineTokens && needsLineTokens(entry.path, entry.tokens)))
      return undefined;
    this.hits++;
    this.used.set(key, entry);
    return entry;
  }

  set(key: string, scanned: ScannedFile): void {
    const { size: _size, isTracked: _isTracked, ...entry } = scanned;
    this.used.set(key, entry);
    this.isChanged = true;
  }

  /** Counts a chunk header line, from the cache when an earlier run counted it. */
  countHeader(header: string, count: (text: string) => number): number {
    let tokens = this.usedHeaders.get(header) ?? this.headerTokens[header];
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
      this.used.size === Object.keys(this.entries).length &&
      this.usedHeaders.size === Object.keys(this.headerTokens).length;
    if (isSame) return;
    const data: CacheFile = {
      stamp: this.stamp,
      entries: Object.fromEntries(this.used),
      headerTokens: Object.fromEntries(this.usedHeaders),
    };
    await writeFileAtomic(this.filePath, JSON.stringify(data), { mode: 0o600, dirMode: 0o700 });
  }
}
