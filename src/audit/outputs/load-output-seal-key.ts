import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../shared/errors.js';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';

/** The key oy seals its outputs with, in oy's state folder (private, never in a workspace). */
const KEY_FILE = 'output-seal.key';
const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}\n?$/;

/** The variable that gives the state key instead of the file: a CI secret, so caches verify across jobs. */
export const STATE_KEY_VARIABLE = 'OY_STATE_KEY';

/**
 * This user's state key: outputs are sealed with it and the caches with keys derived from it. Given in
 * `OY_STATE_KEY` (64 hex digits) when set, else made on first use in the state folder (0600 in a 0700
 * folder), never in the cache folder, so a restored cache brings no key that vouches for it. When the
 * state folder cannot be used, a key for this run alone: its outputs are then audited like any file
 * by later runs and its caches never verify, which costs a little and hides nothing.
 */
export async function loadOutputSealKey(
  stateDir: string,
  provided?: string | undefined,
): Promise<Uint8Array> {
  if (provided !== undefined && provided !== '') return parseProvidedKey(provided);
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

function parseProvidedKey(provided: string): Uint8Array {
  const text = provided.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    // Never quoted: the value is a secret even when it is malformed.
    throw new ConfigError(
      `${STATE_KEY_VARIABLE} must be 64 hexadecimal digits (32 bytes), got ${text.length} characters`,
      {
        hint: `make one with \`openssl rand -hex 32\` and keep it as a CI secret, or unset ${STATE_KEY_VARIABLE}`,
      },
    );
  }
  return Buffer.from(text, 'hex');
}
