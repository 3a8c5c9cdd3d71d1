import type { Chunk, ChunkPart } from '../types.js';
import { chunkId } from './chunk-id.js';
import { SPLIT_OVERLAP_LINES } from './split-file.js';

/**
 * Two halves of a chunk whose review answer was cut off, so each gets the model's whole output budget:
 * its parts split where half the tokens are reached, or a one-part chunk's lines split in the middle
 * (the second half repeating up to SPLIT_OVERLAP_LINES lines, as split files do). Null for one line.
 */
export function halveChunk(chunk: Chunk): [Chunk, Chunk] | null {
  const { parts } = chunk;
  if (parts.length > 1) {
    const half = chunk.tokens / 2;
    let tokens = 0;
    let cut = 0;
    // At least one part on each side; the cut falls where the running count first reaches half.
    while (cut < parts.length - 1 && (cut === 0 || tokens + (parts[cut]?.tokens ?? 0) <= half)) {
      tokens += parts[cut]?.tokens ?? 0;
      cut++;
    }
    return [toChunk(parts.slice(0, cut), chunk), toChunk(parts.slice(cut), chunk)];
  }
  const [part] = parts;
  if (part === undefined || part.endLine <= part.startLine) return null;
  const lines = part.endLine - part.startLine + 1;
  const firstEnd = part.startLine + Math.ceil(lines / 2) - 1;
  // The overlap never makes the second half as long as the whole.
  const overlap = Math.min(SPLIT_OVERLAP_LINES, firstEnd - part.startLine);
  const first = slicePart(part, part.startLine, firstEnd);
  const second = slicePart(part, firstEnd + 1 - overlap, part.endLine);
  return [toChunk([first], chunk), toChunk([second], chunk)];
}

/** A slice of a part; its tokens are the part's share by lines (the per-line counts are not kept here). */
function slicePart(part: ChunkPart, startLine: number, endLine: number): ChunkPart {
  const share = (endLine - startLine + 1) / (part.endLine - part.startLine + 1);
  return { ...part, startLine, endLine, isSplit: true, tokens: Math.ceil(part.tokens * share) };
}

function toChunk(parts: ChunkPart[], parent: Chunk): Chunk {
  return {
    id: chunkId(parts),
    parts,
    tokens: parts.reduce((sum, part) => sum + part.tokens, 0),
    riskScore: parent.riskScore,
  };
}
