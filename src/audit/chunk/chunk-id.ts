import { createHash } from 'node:crypto';
import type { ChunkPart } from '../types.js';

/** sha256 (hex) of the parts' paths, line ranges and content hashes: the same content, the same id. */
export function chunkId(parts: readonly ChunkPart[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(
      `${JSON.stringify([part.path, part.startLine, part.endLine, part.isSplit, part.contentHash])}\n`,
    );
  }
  return hash.digest('hex');
}
