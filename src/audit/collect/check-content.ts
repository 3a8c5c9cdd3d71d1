import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import type { ReviewSkip } from '../types.js';
import { BINARY_EXTENSIONS, BINARY_FILE_NAMES } from './binary-extensions.js';
import {
  binaryAsText,
  blankControlCharacters,
  decodeWideText,
  detectEncoding,
} from './decode-text.js';
import { findGeneratedMarker } from './find-generated-marker.js';
import { findMinifiedContent } from './find-minified-content.js';

// The window git and most tools use to tell binary from text.
export const BINARY_SNIFF_BYTES = 8192;

/**
 * A file's content as text, and why the model will not review it, if it will not. The text is
 * what the secret scan reads either way: decoded UTF-8, UTF-16 or UTF-32 (the byte order mark
 * dropped), lossy UTF-8 for invalid bytes, or `binaryAsText` for binary content.
 */
export interface ContentVerdict {
  text: string;
  reviewSkip?: ReviewSkip;
}

/** Decides from a file's bytes whether it is reviewable text; the text is returned either way. */
export function checkContent(bytes: Uint8Array, filePath: string): ContentVerdict {
  const { encoding, markBytes } = detectEncoding(bytes, BINARY_SNIFF_BYTES);
  const body = bytes.subarray(markBytes);
  if (encoding !== 'utf-8') {
    const text = decodeWideText(body, encoding);
    const nul = text.slice(0, BINARY_SNIFF_BYTES).indexOf('\0');
    if (nul !== -1) {
      return {
        text: blankControlCharacters(text),
        reviewSkip: binarySkip(filePath, `NUL character at ${nul} in ${encoding} text`),
      };
    }
    return checkText(text, filePath);
  }
  const nul = body.subarray(0, BINARY_SNIFF_BYTES).indexOf(0);
  if (nul !== -1) {
    return { text: binaryAsText(body), reviewSkip: binarySkip(filePath, `NUL byte at ${nul}`) };
  }
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // isUtf8 validates in native code, faster than a fatal TextDecoder on real code.
  if (!isUtf8(body)) {
    // Invalid bytes become U+FFFD; line feeds are kept, so line numbers hold.
    return { text: buffer.toString('utf8'), reviewSkip: { reason: 'invalid-utf8' } };
  }
  return checkText(buffer.toString('utf8'), filePath);
}

/** Whether a file's name says it holds binary content (an image, an archive, a font...). */
export function isBinaryName(filePath: string): boolean {
  const name = path.posix.basename(filePath).toLowerCase();
  return BINARY_FILE_NAMES.has(name) || BINARY_EXTENSIONS.has(path.posix.extname(name));
}

// Binary content is expected only under a binary name; anywhere else it may be code in disguise.
function binarySkip(filePath: string, detail: string): ReviewSkip {
  return isBinaryName(filePath)
    ? { reason: 'binary', detail }
    : { reason: 'unexpected-binary', detail: `${detail}; the name does not say binary` };
}

function checkText(text: string, filePath: string): ContentVerdict {
  const marker = findGeneratedMarker(text);
  if (marker !== undefined) return { text, reviewSkip: { reason: 'generated', detail: marker } };
  const minified = findMinifiedContent(text, filePath);
  if (minified !== undefined) return { text, reviewSkip: { reason: 'minified', detail: minified } };
  return { text };
}
