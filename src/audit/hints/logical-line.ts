import type { FileContext } from './file-context.js';

/**
 * A statement wrapped over several lines, read as one: trailing comments dropped, each line break
 * with the indentation after it read as one space (none before a `.` that continues a chain).
 */
export interface LogicalLine {
  firstLine: number;
  lastLine: number;
  text: string;
  /** The file offset of each character of `text`. */
  offsets: Int32Array;
}

// Enough for a call with its arguments on their own lines; bounds the work per hit.
const MAX_LINES_AFTER = 8;
const MAX_LINES_BEFORE = 3;
const MAX_CHARS = 2_000;
const CONTINUES_AFTER = /[(,+=&|?:[.]$/;
const CONTINUES_BEFORE = /^(?:\.(?!\.\.)|\?\.|\+|\)|\]|&&|\|\|)/;

/**
 * A quick look at a line and the next: whether it may be part of a wrapped statement (an open
 * bracket, a trailing operator, a chain continued on either side). Most lines are not.
 */
export function mayBeWrapped(file: FileContext, line: number): boolean {
  const lines = file.lines;
  const text = file.text;
  const start = lines.startOf(line);
  const end = lines.endOf(line);
  let first = start;
  while (first < end && isBlank(text.charCodeAt(first))) first++;
  if (first === end) return false;
  // A line that starts by continuing a chain or an expression (`.then(`, `+ rest`, `)`).
  if (CONTINUES_BEFORE.test(text.slice(first, first + 3))) return true;
  let depth = 0;
  let last = first;
  let hasComment = false;
  for (let at = first; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 40) depth++;
    else if (code === 41) depth--;
    else if (code === 47 || code === 35) hasComment = true;
    if (!isBlank(code)) last = at;
  }
  if (depth > 0) return true;
  // A trailing comment hides how the code ends (`update( // note`): read the line without it.
  const tail = hasComment ? scanLine(file, line).code.trimEnd() : text.slice(last, last + 1);
  if (CONTINUES_AFTER.test(tail)) return true;
  if (!lines.hasLine(line + 1)) return false;
  const next = lines.startOf(line + 1);
  let nextFirst = next;
  const nextEnd = lines.endOf(line + 1);
  while (nextFirst < nextEnd && isBlank(text.charCodeAt(nextFirst))) nextFirst++;
  return CONTINUES_BEFORE.test(text.slice(nextFirst, nextFirst + 3));
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

/** The statement around a line when it is wrapped, or null when the line is complete on its own. */
export function findLogicalLine(file: FileContext, line: number): LogicalLine | null {
  const lines = file.lines;
  let first = line;
  while (
    first > 1 &&
    line - first < MAX_LINES_BEFORE &&
    CONTINUES_BEFORE.test(lines.textOf(first).trimStart())
  ) {
    first--;
  }
  let last = first;
  let depth = 0;
  const codes: string[] = [];
  for (;;) {
    const scanned = scanLine(file, last);
    codes.push(scanned.code);
    depth += scanned.depth;
    const next = lines.hasLine(last + 1) ? lines.textOf(last + 1).trimStart() : '';
    const isOpen =
      depth > 0 ||
      CONTINUES_AFTER.test(scanned.code.trimEnd()) ||
      (next !== '' && CONTINUES_BEFORE.test(next));
    if (!isOpen || !lines.hasLine(last + 1) || last - first >= MAX_LINES_AFTER) break;
    if (lines.endOf(last + 1) - lines.startOf(first) > MAX_CHARS) break;
    last++;
  }
  if (first === line && last === line) return null;
  let text = '';
  const offsets: number[] = [];
  for (let current = first; current <= last; current++) {
    const lineStart = lines.startOf(current);
    const code = (codes[current - first] ?? '').trimEnd();
    const indent = current === first ? 0 : code.length - code.trimStart().length;
    if (current > first && !code.trimStart().startsWith('.') && !text.endsWith('(')) {
      text += ' ';
      offsets.push(lineStart);
    }
    text += code.slice(indent);
    for (let at = indent; at < code.length; at++) offsets.push(lineStart + at);
  }
  return { firstLine: first, lastLine: last, text, offsets: Int32Array.from(offsets) };
}

// A line's code (its trailing comment blanked) and its bracket balance outside quotes.
function scanLine(file: FileContext, line: number): { code: string; depth: number } {
  const text = file.lines.textOf(line);
  if (file.isCommentLine(file.lines.startOf(line))) return { code: '', depth: 0 };
  let depth = 0;
  let quote = 0;
  let end = text.length;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 92) {
      at++;
      continue;
    }
    if (quote !== 0) {
      if (code === quote) quote = 0;
      continue;
    }
    if (code === 39 || code === 34 || code === 96) quote = code;
    else if (code === 40 || code === 91) depth++;
    else if (code === 41 || code === 93) depth--;
    else if ((code === 47 || code === 35) && file.startsTrailingComment(text, at)) {
      end = at;
      break;
    }
  }
  return { code: text.slice(0, end), depth };
}
