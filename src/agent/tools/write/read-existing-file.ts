import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { errorCode } from '../../../safety/paths/path-refusal.js';
import { ToolFailure } from '../tool-types.js';

/** Largest file the write tools read to edit or to diff (README.md "Tools": the read cap). */
export const MAX_EDIT_BYTES = 2 * 1024 * 1024;
// The window git uses to tell binary from text.
const BINARY_SNIFF_BYTES = 8192;
// Never through a link, never blocking on a FIFO.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What a write tool found at its target before changing it. */
export type ExistingFile =
  | { kind: 'absent' }
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: number }
  | { kind: 'large'; bytes: number };

/** Reads a confined workspace file as UTF-8 text, or says why it is not text; throws ToolFailure when unreadable. */
export async function readExistingFile(
  absolutePath: string,
  shownPath: string,
): Promise<ExistingFile> {
  let handle: FileHandle;
  try {
    handle = await open(absolutePath, READ_FLAGS);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'absent' };
    throw new ToolFailure(`${shownPath} cannot be read (${errorCode(error)})`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ToolFailure(`${shownPath} is not a regular file`);
    if (stats.size > MAX_EDIT_BYTES) return { kind: 'large', bytes: stats.size };
    const bytes = await handle.readFile();
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0) || !isUtf8(bytes))
      return { kind: 'binary', bytes: bytes.length };
    return { kind: 'text', text: bytes.toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** The text of an existing file a tool edits; throws ToolFailure naming why anything else cannot be edited. */
export function requireText(existing: ExistingFile, shownPath: string): string {
  switch (existing.kind) {
    case 'text':
      return existing.text;
    case 'absent':
      throw new ToolFailure(`${shownPath} does not exist; use write to create it`);
    case 'binary':
      throw new ToolFailure(`${shownPath} is not a UTF-8 text file; edit tools change text only`);
    case 'large':
      throw new ToolFailure(
        `${shownPath} is ${existing.bytes} bytes, over the ${MAX_EDIT_BYTES}-byte limit for edits`,
      );
  }
}
