import { isUtf8 } from 'node:buffer';
import type { SkipReason } from '../types.js';
import { findGeneratedMarker } from './find-generated-marker.js';
import { findMinifiedContent } from './find-minified-content.js';

// The window git and most tools use to tell binary from text.
export const BINARY_SNIFF_BYTES = 8192;

const BOM = '\uFEFF';

export type ContentVerdict = { text: string } | { reason: SkipReason; detail?: string };

/** Decides from a file's bytes whether it is reviewable text, and returns that text without a BOM. */
export function checkContent(bytes: Uint8Array, filePath: string): ContentVerdict {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return { reason: 'binary', detail: `NUL byte in the first ${BINARY_SNIFF_BYTES} bytes` };
  }
  // isUtf8 validates in native code, faster than a fatal TextDecoder on real code.
  if (!isUtf8(bytes)) return { reason: 'invalid-utf8' };
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.startsWith(BOM)) text = text.slice(1);
  const marker = findGeneratedMarker(text);
  if (marker !== undefined) return { reason: 'generated', detail: marker };
  const minified = findMinifiedContent(text, filePath);
  if (minified !== undefined) return { reason: 'minified', detail: minified };
  return { text };
}
