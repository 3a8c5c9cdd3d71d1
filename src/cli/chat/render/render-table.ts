import type { Colors } from '../../terminal.js';
import { padToWidth, visibleWidth, wrapText } from './wrap-text.js';

type Align = 'left' | 'right' | 'center';

const COLUMN_GAP = ' │ ';
/** Narrowest a column is squeezed to before its cells wrap letter by letter. */
const MIN_COLUMN_WIDTH = 3;

/** `| a | b |`: a line that belongs to a Markdown table (a row or the delimiter row). */
export function isTableLine(line: string): boolean {
  return /^\s*\|.*\|\s*$/u.test(line);
}

/** `|---|:--:|`: the line under a table's header. */
export function isDelimiterRow(line: string): boolean {
  return /^\s*\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*$/u.test(line);
}

/**
 * A Markdown table as aligned text rows that fit `width` (undefined: no limit): the header bold,
 * a rule under it, columns joined by `│`; cells wider than their share wrap at spaces. `renderCell`
 * styles a cell's inline Markdown (its input is already neutralised).
 */
export function renderTable(
  lines: readonly string[],
  width: number | undefined,
  c: Colors,
  renderCell: (text: string) => string,
): string[] {
  const aligns = splitRow(lines[1] ?? '').map(alignOf);
  const rows = [lines[0]!, ...lines.slice(2)].map((line) => splitRow(line).map(renderCell));
  const count = Math.max(...rows.map((row) => row.length));
  const natural = Array.from({ length: count }, (_, column) =>
    Math.max(1, ...rows.map((row) => visibleWidth(row[column] ?? ''))),
  );
  const widths =
    width === undefined
      ? natural
      : fitColumns(natural, width - visibleWidth(COLUMN_GAP) * (count - 1));
  const out: string[] = [];
  rows.forEach((row, index) => {
    const cells = widths.map((columnWidth, column) =>
      wrapText(row[column] ?? '', columnWidth).map((text) =>
        align(text, columnWidth, aligns[column] ?? 'left'),
      ),
    );
    const height = Math.max(...cells.map((cell) => cell.length));
    for (let line = 0; line < height; line += 1) {
      const text = cells
        .map((cell, column) => cell[line] ?? ' '.repeat(widths[column]!))
        .join(c.dim(COLUMN_GAP))
        .trimEnd();
      out.push(index === 0 ? c.bold(text) : text);
    }
    if (index === 0)
      out.push(c.dim(widths.map((columnWidth) => '─'.repeat(columnWidth)).join('─┼─')));
  });
  return out;
}

/** Each column its natural width when all fit; else the narrow ones whole and the rest share what is left. */
function fitColumns(natural: readonly number[], available: number): number[] {
  const total = natural.reduce((sum, value) => sum + value, 0);
  if (total <= available) return [...natural];
  const widths = [...natural];
  const order = natural
    .map((value, column) => ({ value, column }))
    .sort((a, b) => a.value - b.value);
  let left = Math.max(available, MIN_COLUMN_WIDTH * natural.length);
  order.forEach(({ value, column }, index) => {
    const share = Math.floor(left / (order.length - index));
    widths[column] = Math.max(MIN_COLUMN_WIDTH, Math.min(value, share));
    left -= widths[column]!;
  });
  return widths;
}

/** The cells of one row: outer pipes dropped, split at pipes not escaped with a backslash. */
function splitRow(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/u, '')
    .replace(/(?<!\\)\|$/u, '');
  return inner.split(/(?<!\\)\|/u).map((cell) => cell.trim().replaceAll('\\|', '|'));
}

function alignOf(cell: string): Align {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  if (left && right) return 'center';
  return right ? 'right' : 'left';
}

function align(text: string, width: number, how: Align): string {
  const space = Math.max(0, width - visibleWidth(text));
  if (how === 'right') return ' '.repeat(space) + text;
  if (how === 'center') return padToWidth(' '.repeat(Math.floor(space / 2)) + text, width);
  return padToWidth(text, width);
}
