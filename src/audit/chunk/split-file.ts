import type { ChunkPart, ChunkableFile } from '../types.js';
import { formatPartHeader } from './format-part-header.js';
import { PART_BOUNDARY_TOKENS } from './render-part.js';

/** Lines repeated at the start of each part after the first, so no construct is cut blind. */
export const SPLIT_OVERLAP_LINES = 10;

export type SplitResult = { parts: ChunkPart[] } | { oversizedLine: number };

/**
 * Splits a file that does not fit one chunk into parts of near-equal size at line
 * boundaries, each part within `budgetTokens` with its header, consecutive parts sharing up
 * to SPLIT_OVERLAP_LINES lines. A line that cannot fit even alone makes the file oversized.
 */
export function splitFile(
  file: ChunkableFile,
  budgetTokens: number,
  countTokens: (text: string) => number,
): SplitResult {
  const lineTokens = file.lineTokens;
  if (!lineTokens || lineTokens.length !== file.lineCount) {
    throw new Error(
      `planChunks: ${file.path} needs splitting but has ${lineTokens ? `${lineTokens.length} line counts for ${file.lineCount} lines` : 'no lineTokens'}`,
    );
  }
  const headerTokens = (startLine: number, endLine: number) =>
    countTokens(`${formatPartHeader({ path: file.path, startLine, endLine, isSplit: true })}\n`);
  // The widest line range has the longest numbers, so its header costs the most.
  const capacity =
    budgetTokens - headerTokens(file.lineCount, file.lineCount) - PART_BOUNDARY_TOKENS;
  if (capacity < 1) return { oversizedLine: 1 };
  const tooLong = lineTokens.findIndex((tokens) => tokens > capacity);
  if (tooLong !== -1) return { oversizedLine: tooLong + 1 };

  const total = lineTokens.reduce((sum, tokens) => sum + tokens, 0);
  // Equal shares of the fewest parts that could hold the file; overlap may add one more.
  const targetNewTokens = Math.max(1, Math.ceil(total / Math.max(1, Math.ceil(total / capacity))));
  const tokensOf = (line: number) => lineTokens[line - 1]!;
  const parts: ChunkPart[] = [];
  let startLine = 1;
  let firstNewLine = 1;
  let endBeforeLast = 0;
  for (;;) {
    let bodyTokens = 0;
    for (let line = startLine; line < firstNewLine; line++) bodyTokens += tokensOf(line);
    let newTokens = 0;
    let endLine = firstNewLine - 1;
    while (endLine < file.lineCount && newTokens < targetNewTokens) {
      const next = tokensOf(endLine + 1);
      if (bodyTokens + next > capacity) break;
      bodyTokens += next;
      newTokens += next;
      endLine += 1;
    }
    const tokens = headerTokens(startLine, endLine) + bodyTokens + PART_BOUNDARY_TOKENS;
    if (endLine < firstNewLine || tokens > budgetTokens) {
      throw new Error(
        `planChunks: could not fit ${file.path} lines ${startLine}-${endLine} in ${budgetTokens} tokens`,
      );
    }
    parts.push({
      path: file.path,
      startLine,
      endLine,
      isSplit: true,
      tokens,
      contentHash: file.contentHash,
    });
    if (endLine === file.lineCount) return { parts };
    // Overlap only the part just made, never the one before it.
    const nextStart = Math.max(startLine + 1, endLine + 1 - SPLIT_OVERLAP_LINES, endBeforeLast + 1);
    endBeforeLast = endLine;
    firstNewLine = endLine + 1;
    startLine = nextStart;
    // Give up overlap rather than progress: the overlap plus the next new line must fit.
    let withNext = tokensOf(firstNewLine);
    for (let line = startLine; line < firstNewLine; line++) withNext += tokensOf(line);
    while (withNext > capacity) withNext -= tokensOf(startLine++);
  }
}
