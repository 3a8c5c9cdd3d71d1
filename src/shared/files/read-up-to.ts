import type { FileHandle } from 'node:fs/promises';

/** Reads from the start of an open file until its end or `maxBytes`, whichever comes first. */
export async function readUpTo(handle: FileHandle, maxBytes: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    const { bytesRead } = await handle.read(buffer, filled, maxBytes - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
