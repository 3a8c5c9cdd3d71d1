import type { ChunkPart } from '../types.js';

// A control character or line separator in a path could forge a header line of its own.
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/**
 * The header line (without its newline) that introduces a part in a rendered chunk:
 * `=== src/a.ts ===` for a whole file, `=== src/a.ts (lines 120-480) ===` for a slice of a
 * split file. Token accounting and rendering both use this function, so they agree.
 */
export function formatPartHeader(
  part: Pick<ChunkPart, 'path' | 'startLine' | 'endLine' | 'isSplit'>,
): string {
  const label = formatPathLabel(part.path);
  return part.isSplit
    ? `=== ${label} (lines ${part.startLine}-${part.endLine}) ===`
    : `=== ${label} ===`;
}

/** A path as a prompt shows it: JSON-quoted when a control character could forge a line of its own. */
export function formatPathLabel(path: string): string {
  return CONTROL_CHARACTER.test(path) ? JSON.stringify(path) : path;
}
