import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';

/** The key oy seals its outputs with, in oy's state folder (private, never in a workspace). */
const KEY_FILE = 'output-seal.key';
const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}\n?$/;

/**
 * This user's seal key, made on first use (0600 in a 0700 folder). When the state folder cannot
 * be used, a key for this run alone: its outputs are then audited like any file by later runs,
 * which costs a little and hides nothing.
 */
export async function loadOutputSealKey(stateDir: string): Promise<Uint8Array> {
  const file = path.join(stateDir, KEY_FILE);
  const existing = await readKey(file);
  if (existing !== undefined) return existing;
  try {
    await writeFileAtomic(file, `${randomBytes(KEY_BYTES).toString('hex')}\n`, {
      mode: 0o600,
      dirMode: 0o700,
    });
  } catch {
    return randomBytes(KEY_BYTES);
  }
  // Read back, so two runs racing to make the key end up with the one on disk.
  return (await readKey(file)) ?? randomBytes(KEY_BYTES);
}

async function readKey(file: string): Promise<Uint8Array | undefined> {
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size > 2 * KEY_BYTES + 1) return undefined;
      const text = await handle.readFile('utf8');
      return KEY_TEXT.test(text) ? Buffer.from(text.trim(), 'hex') : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
