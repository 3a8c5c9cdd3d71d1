import type { SkipReason } from '../types.js';
import { findGeneratedMarker } from './find-generated-marker.js';
import { findMinifiedContent } from './find-minified-content.js';

// The window git and most tools use to tell binary from text.
export const BINARY_SNIFF_BYTES = 8192;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = '\uFEFF';

export type ContentVerdict = { text: string } | { reason: SkipReason; detail?: string };

/** Decides from a file's bytes whether it is reviewable text, and returns that text without a BOM. */
export function checkContent(bytes: Uint8Array, filePath: string): ContentVerdict {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return { reason: 'binary', detail: `NUL byte in the first ${BINARY_SNIFF_BYTES} bytes` };
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { reason: 'invalid-utf8' };
  }
  if (text.startsWith(BOM)) text = text.slice(1);
  const marker = findGeneratedMarker(text);
  if (marker !== undefined) return { reason: 'generated', detail: marker };
  const minified = findMinifiedContent(text, filePath);
  if (minified !== undefined) return { reason: 'minified', detail: minified };
  return { text };
}
