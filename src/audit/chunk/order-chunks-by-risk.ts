import type { Chunk } from '../types.js';

/** The review order: the highest riskScore first; equal scores keep their path order. */
export function orderChunksByRisk(chunks: readonly Chunk[]): Chunk[] {
  return chunks
    .map((chunk, position) => ({ chunk, position }))
    .sort((a, b) => b.chunk.riskScore - a.chunk.riskScore || a.position - b.position)
    .map(({ chunk }) => chunk);
}
