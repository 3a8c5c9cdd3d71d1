import type { FileHandle } from 'node:fs/promises';

// Large enough to copy quickly, small enough that a spilled file never sits whole in memory.
const COPY_CHUNK_BYTES = 1024 * 1024;

/** Copies everything from one open file to another, a chunk at a time (handles stay open). */
export async function copyHandle(from: FileHandle, to: FileHandle): Promise<void> {
  const buffer = Buffer.alloc(COPY_CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await from.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return;
    await to.write(buffer, 0, bytesRead);
  }
}
