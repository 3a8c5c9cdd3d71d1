import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { AUDIT_BOUNDS } from '../../config/config-bounds.js';
import { hasOutputSeal, SEAL_MARK, SEAL_TAIL_BYTES } from './output-seal.js';

/**
 * Whether a file too large to scan is a sealed oy output (a big repository's SARIF), so it is
 * `skipped(oy-output)` rather than `skipped(too-large)`. The end is read first: a file with no
 * seal there is never read whole.
 */
export function isSealedFile(absolutePath: string | Buffer, key: Uint8Array | undefined): boolean {
  let fd: number;
  try {
    fd = openSync(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > AUDIT_BOUNDS.maxFileBytes.max) return false;
    const tailLength = Math.min(stats.size, SEAL_TAIL_BYTES);
    const tail = Buffer.alloc(tailLength);
    readSync(fd, tail, 0, tailLength, stats.size - tailLength);
    if (!SEAL_MARK.test(tail.toString('latin1'))) return false;
    const whole = Buffer.alloc(stats.size);
    let filled = 0;
    while (filled < stats.size) {
      const read = readSync(fd, whole, filled, stats.size - filled, filled);
      if (read === 0) return false;
      filled += read;
    }
    return hasOutputSeal(whole, key);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
