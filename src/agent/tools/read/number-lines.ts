/** Longest line shown whole; minified code and data lines past this are cut with a marker. */
export const MAX_LINE_CHARS = 2000;

export interface NumberedSlice {
  /** The chosen lines, each `<number>\t<text>`, joined by newlines. */
  content: string;
  /** How many lines the slice holds. */
  shown: number;
  /** Lines cut at MAX_LINE_CHARS. */
  cutLines: number;
}

/**
 * Splits text into lines (LF or CRLF; a final newline ends the last line rather than starting one).
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Numbers `lines[offset-1 ..]` like `cat -n`, stopping after `limit` lines or once the output
 * would pass `maxChars` (always at least one line), so the caller can say where to go on.
 */
export function numberLines(
  lines: readonly string[],
  offset: number,
  limit: number,
  maxChars: number,
): NumberedSlice {
  const last = Math.min(lines.length, offset - 1 + limit);
  const width = Math.max(4, String(last).length);
  const out: string[] = [];
  let chars = 0;
  let cutLines = 0;
  for (let index = offset - 1; index < last; index += 1) {
    const line = lines[index] ?? '';
    const isCut = line.length > MAX_LINE_CHARS;
    const text = isCut
      ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length - MAX_LINE_CHARS} more characters]`
      : line;
    const numbered = `${String(index + 1).padStart(width)}\t${text}`;
    if (out.length > 0 && chars + numbered.length + 1 > maxChars) break;
    out.push(numbered);
    chars += numbered.length + 1;
    if (isCut) cutLines += 1;
  }
  return { content: out.join('\n'), shown: out.length, cutLines };
}
