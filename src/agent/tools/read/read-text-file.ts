import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { readUpTo } from '../../../shared/files/read-up-to.js';

/** Files past this are refused by read and skipped by search: 2 MiB is far beyond hand-written code. */
export const MAX_TEXT_FILE_BYTES = 2 * 1024 * 1024;

// O_NOFOLLOW: the path is already resolved, so a link here means it changed under us.
// O_NONBLOCK: a FIFO swapped in after the check must not hang the open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

const BOM = '\uFEFF';

export type TextFileProblem = 'not-a-file' | 'too-large' | 'binary' | 'invalid-utf8' | 'unreadable';

export type TextFile =
  | { ok: true; text: string; bytes: number }
  | { ok: false; problem: TextFileProblem; detail: string };

/**
 * Reads a regular file as UTF-8 text, refusing links, folders, files over `maxBytes`, and
 * content with a NUL byte or invalid UTF-8 (binary). Never throws.
 */
export async function readTextFile(
  absolutePath: string,
  maxBytes = MAX_TEXT_FILE_BYTES,
): Promise<TextFile> {
  let handle;
  try {
    handle = await open(absolutePath, OPEN_FLAGS);
  } catch (error) {
    return unreadable(error);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory())
      return { ok: false, problem: 'not-a-file', detail: 'is a folder, not a file' };
    if (!stats.isFile())
      return { ok: false, problem: 'not-a-file', detail: 'is not a regular file' };
    if (stats.size > maxBytes) return tooLarge(stats.size, maxBytes);
    // One byte more than the cap tells a file that grew since the stat from one that fits.
    const bytes = await readUpTo(handle, maxBytes + 1);
    if (bytes.length > maxBytes) return tooLarge(bytes.length, maxBytes);
    return decodeText(bytes);
  } catch (error) {
    return unreadable(error);
  } finally {
    await handle.close();
  }
}

/** UTF-8 text without a BOM, or why the bytes are not text. */
export function decodeText(bytes: Buffer): TextFile {
  if (bytes.includes(0))
    return { ok: false, problem: 'binary', detail: 'contains NUL bytes (a binary file)' };
  if (!isUtf8(bytes))
    return { ok: false, problem: 'invalid-utf8', detail: 'is not valid UTF-8 text' };
  const text = bytes.toString('utf8');
  return { ok: true, text: text.startsWith(BOM) ? text.slice(1) : text, bytes: bytes.length };
}

function tooLarge(size: number, maxBytes: number): TextFile {
  return {
    ok: false,
    problem: 'too-large',
    detail: `is ${formatMiB(size)}, over the ${formatMiB(maxBytes)} cap`,
  };
}

function unreadable(error: unknown): TextFile {
  const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
  const detail =
    code === 'ELOOP'
      ? 'is a symbolic link'
      : code === 'ENOENT'
        ? 'does not exist'
        : `cannot be read (${code})`;
  return { ok: false, problem: code === 'ELOOP' ? 'not-a-file' : 'unreadable', detail };
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(2)} MiB`;
}
