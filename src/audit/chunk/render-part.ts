import type { ChunkPart } from '../types.js';
import { formatPartHeader } from './format-part-header.js';

/**
 * Tokens charged to each part beyond its header line and its lines' own counts: one for the
 * newline `renderPart` adds after a last line that lacks one, and one because o200k can join
 * the header's closing `===\n` with slashes that open the body (`===\n//`), which measured at
 * most one extra token over 250,000 line starts of real code.
 */
export const PART_BOUNDARY_TOKENS = 2;

/**
 * A part as the model sees it: its header line, then lines `startLine..endLine` of the file
 * (1-based, inclusive, each through its `\n`), ending with a newline. A chunk's text is its
 * parts rendered in order and concatenated; its token count then stays within `chunk.tokens`.
 */
export function renderPart(
  part: Pick<ChunkPart, 'path' | 'startLine' | 'endLine' | 'isSplit'>,
  fileText: string,
): string {
  const body = sliceLines(fileText, part.startLine, part.endLine);
  return `${formatPartHeader(part)}\n${body}${body.endsWith('\n') || body === '' ? '' : '\n'}`;
}

/** Lines `startLine..endLine` (1-based, inclusive) of `text`, each with its own `\n`. */
export function sliceLines(text: string, startLine: number, endLine: number): string {
  let start = 0;
  for (let line = 1; line < startLine && start !== -1; line++) start = nextLineStart(text, start);
  if (start === -1) return '';
  let end = start;
  for (let line = startLine; line <= endLine && end !== -1; line++) end = nextLineStart(text, end);
  return text.slice(start, end === -1 ? text.length : end);
}

function nextLineStart(text: string, from: number): number {
  if (from >= text.length) return -1;
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline + 1;
}
