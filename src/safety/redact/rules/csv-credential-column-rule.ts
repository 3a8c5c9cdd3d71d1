import { isStatedSecret } from '../is-stated-secret.js';
import { readSecretName } from '../is-secret-name.js';
import type { ValueRange, WindowRule } from '../redaction-rule.js';

const SEPARATORS = [',', ';', '\t', '|'];
const CREDENTIAL_WORDS = ['password', 'passwd', 'pwd', 'secret', 'token', 'api_key', 'apikey'];
// A table is read this far below its header (rows beyond are not judged).
const MAX_TABLE_CHARS = 1 << 20;
const MIN_COLUMNS = 2;

/**
 * A delimited table (CSV, TSV) whose header names a credential column (`password`, `api_token`):
 * that column's cells in the rows below, wherever the table is.
 */
export const CSV_CREDENTIAL_COLUMN_RULE: WindowRule = {
  id: 'credential-column',
  description:
    'The cells of a CSV/TSV column whose header names a credential (password, api_token, ...)',
  // A credential word beside a separator, as a header cell is.
  keywords: CREDENTIAL_WORDS.flatMap((word) =>
    SEPARATORS.flatMap((separator) => [`${separator}${word}`, `${word}${separator}`]),
  ),
  scope: 'window',
  contextLines: 0,
  findIn(text: string, start: number, end: number): ValueRange[] {
    const found: ValueRange[] = [];
    for (let lineStart = start; lineStart < end;) {
      const lineEnd = endOfLine(text, lineStart);
      found.push(...readTable(text, lineStart, lineEnd));
      lineStart = lineEnd + 1;
    }
    return found;
  },
};

function endOfLine(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline;
}

/** The credential cells of the table whose header is the line `[start, end)`, if it is one. */
function readTable(text: string, start: number, end: number): ValueRange[] {
  const header = text.slice(start, end).replace(/\r$/, '');
  const separator = SEPARATORS.find((candidate) => header.includes(candidate));
  if (separator === undefined) return [];
  const names = header.split(separator).map((cell) => cell.trim().replace(/^["']|["']$/g, ''));
  // A header is names: no blanks inside a cell, no assignment or call around them.
  if (names.length < MIN_COLUMNS || names.some((name) => !/^[A-Za-z_][\w .-]{0,63}$/.test(name))) {
    return [];
  }
  const columns = names.flatMap((name, index) =>
    readSecretName(name.replace(/[ .-]/g, '_')) === 'credential' ? [index] : [],
  );
  if (columns.length === 0) return [];
  const found: ValueRange[] = [];
  const limit = Math.min(text.length, end + MAX_TABLE_CHARS);
  for (let rowStart = end + 1; rowStart < limit;) {
    const rowEnd = endOfLine(text, rowStart);
    const cells = splitRow(text, rowStart, rowEnd, separator);
    if (cells.length !== names.length) break;
    for (const column of columns) {
      const cell = cells[column];
      if (cell !== undefined && isStatedSecret(text.slice(cell.start, cell.end))) found.push(cell);
    }
    rowStart = rowEnd + 1;
  }
  return found;
}

/** The cells of a row, quotes and blanks around each left out. */
function splitRow(text: string, start: number, end: number, separator: string): ValueRange[] {
  const cells: ValueRange[] = [];
  let cellStart = start;
  for (let index = start; index <= end; index += 1) {
    if (index !== end && text[index] !== separator && text[index] !== '\r') continue;
    let from = cellStart;
    let to = index;
    while (from < to && /[ \t"']/.test(text[from] ?? '')) from += 1;
    while (to > from && /[ \t"']/.test(text[to - 1] ?? '')) to -= 1;
    cells.push({ start: from, end: to });
    cellStart = index + 1;
    if (text[index] === '\r') break;
  }
  return cells;
}
