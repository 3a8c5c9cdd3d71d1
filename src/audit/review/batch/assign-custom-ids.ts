/** A batch request's `custom_id`, as the Message Batches API states it. */
export const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
/** Hex digits of the chunk id kept: 192 bits, and room left for a `-<n>` suffix within 64 characters. */
const CHUNK_ID_CHARS = 48;
const PREFIX = 'chunk-';

/**
 * One `custom_id` per chunk id, in order: `chunk-` and the start of the chunk id (a sha256 in hex), with
 * anything outside `[a-zA-Z0-9_-]` made `_`, and `-2`, `-3`… on a repeat, so the ids are unique and each
 * is 1–64 characters of the allowed set whatever the chunk id holds.
 */
export function assignCustomIds(chunkIds: readonly string[]): string[] {
  const taken = new Set<string>();
  // The next suffix to try per base, so many repeats stay linear.
  const nextSuffix = new Map<string, number>();
  return chunkIds.map((chunkId) => {
    const base = `${PREFIX}${chunkId.slice(0, CHUNK_ID_CHARS).replace(/[^a-zA-Z0-9_-]/g, '_')}`;
    let n = nextSuffix.get(base) ?? 1;
    let id = n === 1 ? base : `${base}-${n}`;
    while (taken.has(id)) id = `${base}-${++n}`;
    nextSuffix.set(base, n + 1);
    taken.add(id);
    return id;
  });
}
