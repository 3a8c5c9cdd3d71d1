/**
 * Token counts of pre-tokenizer pieces, looked up by a piece's place in the text it came from,
 * so a hit allocates nothing: no match array, no substring, no string hashing by the engine.
 * An open-addressing table of (hash, entry) pairs points into flat arrays that hold each
 * remembered piece's characters and count; they grow by doubling, so a small audit stays small.
 * Counting is most of the scan's time, and a `Map` keyed by fresh substrings spent most of it
 * on allocation and hashing.
 */
export class PieceMemo {
  /** Per slot: the piece's hash, then its entry number plus one (0: empty). */
  private slots = new Int32Array(2 * INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  /** Per entry (ENTRY_INTS ints): where its characters start in `chars`, length, count, hash. */
  private entries = new Int32Array(ENTRY_INTS * (INITIAL_SLOTS / 2));
  private chars = new Uint16Array(8 * INITIAL_SLOTS);
  private entryCount = 0;
  private charCount = 0;

  /**
   * @param maxEntries pieces remembered before the memo starts again empty
   * @param maxChars characters of remembered pieces before it starts again empty
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get size(): number {
    return this.entryCount;
  }

  /** The count of `text.slice(start, end)`, from memory or from `encodeLength` (then remembered). */
  count(text: string, start: number, end: number, encodeLength: (piece: string) => number): number {
    const length = end - start;
    const hash = pieceHash(text, start, end);
    const { slots, entries, chars, mask } = this;
    let slot = hash & mask;
    for (;;) {
      const entry = slots[2 * slot + 1] ?? 0;
      if (entry === 0) break;
      if (slots[2 * slot] === hash) {
        const base = (entry - 1) * ENTRY_INTS;
        if (entries[base + 1] === length) {
          const at = (entries[base] ?? 0) - start;
          let index = start;
          while (index < end && chars[at + index] === text.charCodeAt(index)) index++;
          if (index === end) return entries[base + 2] ?? 0;
        }
      }
      slot = (slot + 1) & mask;
    }
    const tokens = encodeLength(text.slice(start, end));
    if (this.entryCount >= this.maxEntries || this.charCount + length > this.maxChars) {
      this.clear();
      return tokens;
    }
    this.remember(text, start, length, tokens, hash, slot);
    return tokens;
  }

  clear(): void {
    this.slots = new Int32Array(2 * INITIAL_SLOTS);
    this.mask = INITIAL_SLOTS - 1;
    this.entries = new Int32Array(ENTRY_INTS * (INITIAL_SLOTS / 2));
    this.chars = new Uint16Array(8 * INITIAL_SLOTS);
    this.entryCount = 0;
    this.charCount = 0;
  }

  private remember(
    text: string,
    start: number,
    length: number,
    tokens: number,
    hash: number,
    slot: number,
  ): void {
    if (this.charCount + length > this.chars.length) {
      const chars = new Uint16Array(Math.max(2 * this.chars.length, this.charCount + length));
      chars.set(this.chars);
      this.chars = chars;
    }
    if ((this.entryCount + 1) * ENTRY_INTS > this.entries.length) {
      const entries = new Int32Array(2 * this.entries.length);
      entries.set(this.entries);
      this.entries = entries;
    }
    const { chars, entries } = this;
    const base = this.entryCount * ENTRY_INTS;
    entries[base] = this.charCount;
    entries[base + 1] = length;
    entries[base + 2] = tokens;
    entries[base + 3] = hash;
    for (let index = 0; index < length; index++) {
      chars[this.charCount + index] = text.charCodeAt(start + index);
    }
    this.charCount += length;
    this.entryCount++;
    this.slots[2 * slot] = hash;
    this.slots[2 * slot + 1] = this.entryCount;
    // At most half full, so a probe ends soon at an empty slot.
    if (2 * this.entryCount > this.mask + 1) this.growSlots();
  }

  private growSlots(): void {
    const slotCount = 2 * (this.mask + 1);
    const slots = new Int32Array(2 * slotCount);
    const mask = slotCount - 1;
    for (let entry = 0; entry < this.entryCount; entry++) {
      const hash = this.entries[entry * ENTRY_INTS + 3] ?? 0;
      let slot = hash & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = hash;
      slots[2 * slot + 1] = entry + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** FNV-1a over UTF-16 code units, seeded with the length; exported for the collision test. */
export function pieceHash(text: string, start: number, end: number): number {
  let hash = end - start;
  for (let index = start; index < end; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash ^ (hash >>> 15);
}

const INITIAL_SLOTS = 4096;
const ENTRY_INTS = 4;
