/**
 * The line sets of recently scanned blobs, by blob id, up to a character budget: the version a
 * commit changes is usually the one scanned a few commits before, so its lines need not be read
 * and split again. Least recently used first out.
 */
export class LineSetCache {
  readonly #entries = new Map<string, { lines: ReadonlySet<string>; chars: number }>();
  #chars = 0;

  constructor(readonly maxChars: number) {}

  get(id: string): ReadonlySet<string> | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    // Re-inserted, so a Map's insertion order is the use order.
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry.lines;
  }

  set(id: string, lines: ReadonlySet<string>, chars: number): void {
    if (chars > this.maxChars || this.#entries.has(id)) return;
    this.#entries.set(id, { lines, chars });
    this.#chars += chars;
    for (const [oldest, entry] of this.#entries) {
      if (this.#chars <= this.maxChars) break;
      this.#entries.delete(oldest);
      this.#chars -= entry.chars;
    }
  }
}
