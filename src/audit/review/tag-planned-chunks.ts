import type { Chunk } from '../types.js';

/**
 * The planned chunk each map outcome belongs to. Outcomes come in the order of the planned chunks,
 * a chunk reviewed in halves giving its pieces one after another, and only a chunk's last piece
 * ends where the chunk ends (its last part's path and last line).
 */
export function tagPlannedChunks(planned: readonly Chunk[], pieces: readonly Chunk[]): string[] {
  const ids: string[] = [];
  let index = 0;
  for (const piece of pieces) {
    const chunk = planned[index];
    if (chunk === undefined) throw new Error('a map outcome follows the last planned chunk');
    ids.push(chunk.id);
    if (endKey(piece) === endKey(chunk)) index++;
  }
  return ids;
}

function endKey(chunk: Chunk): string {
  const last = chunk.parts.at(-1);
  return last === undefined ? '' : `${last.path}\0${last.endLine}`;
}
