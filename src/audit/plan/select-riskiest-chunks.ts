import { orderChunksByRisk } from '../chunk/order-chunks-by-risk.js';
import type { Chunk } from '../types.js';

export interface ChunkSelection {
  /** The chunks to review, in their plan (path) order. */
  kept: Chunk[];
  /** The chunks `--riskiest` left out, in plan order. */
  dropped: Chunk[];
}

/**
 * `--riskiest <n>`: the n chunks with the highest risk score (the sum of their hints' weights),
 * ties broken by path order, so the same plan always keeps the same chunks. null keeps all.
 */
export function selectRiskiestChunks(
  chunks: readonly Chunk[],
  riskiest: number | null,
): ChunkSelection {
  if (riskiest === null || chunks.length <= riskiest) return { kept: [...chunks], dropped: [] };
  const kept = new Set(orderChunksByRisk(chunks).slice(0, riskiest));
  return {
    kept: chunks.filter((chunk) => kept.has(chunk)),
    dropped: chunks.filter((chunk) => !kept.has(chunk)),
  };
}
