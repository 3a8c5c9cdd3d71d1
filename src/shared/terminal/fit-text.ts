import { formatCount } from './describe-invisible.js';
import { splitInvisible, type TextPiece } from './show-invisible.js';

/** How much of a block fits: rows of the terminal for its head and its tail, at its width. */
export interface BlockBudget {
  columns: number;
  headRows: number;
  tailRows: number;
  /** Columns each shown line starts with (`$ `), counted in its rows. */
  prefixColumns?: number;
}

/** A block as it is shown: whole, or its head and tail with what lies between counted. */
export interface FittedBlock {
  head: string[];
  /** Present when the middle is not shown; the caller puts its own marker line between head and tail. */
  tail?: string[];
  /** Characters (code points, line breaks included) not shown. */
  hiddenChars: number;
  /** Line breaks among them. */
  hiddenLines: number;
  totalChars: number;
  /** Whether a run of invisible characters is shown as a counted marker. */
  hasMarkers: boolean;
}

interface Segment {
  text: string;
  chars: number;
  /** A marker is shown whole or not at all. */
  isAtomic: boolean;
}

// A code point from U+1100 up may take two cells; counting two never overfills the screen.
const FIRST_MAYBE_WIDE = 0x1100;
const TAB_COLUMNS = 8;

/**
 * Untrusted text for a person to approve, every invisible run counted (show-invisible.ts), fitted to
 * `headRows + tailRows + 1` terminal rows: whole when it fits, else its head and its tail, cut at
 * character precision, with the number of characters and line breaks left out.
 */
export function fitBlock(text: string, budget: BlockBudget): FittedBlock {
  const pieces = splitInvisible(text);
  const lines = toLines(pieces);
  const totalChars = pieces.reduce((sum, piece) => sum + charsOf(piece), 0);
  const hasMarkers = pieces.some((piece) => piece.kind === 'marker');
  const prefix = budget.prefixColumns ?? 0;
  const rowsOf = (line: readonly Segment[]) =>
    Math.max(1, Math.ceil((prefix + widthOf(line)) / budget.columns));
  const rows = lines.reduce((sum, line) => sum + rowsOf(line), 0);
  if (rows <= budget.headRows + budget.tailRows + 1)
    return { head: lines.map(join), hiddenChars: 0, hiddenLines: 0, totalChars, hasMarkers };
  const head = takeRows(lines, budget.headRows, budget, rowsOf, false);
  const backwards = [...lines].reverse().map((line) => [...line].reverse());
  const tail = takeRows(backwards, budget.tailRows, budget, rowsOf, true);
  const breaks = lines.length - 1;
  const hiddenLines = breaks - head.breaks - tail.breaks;
  return {
    head: head.lines.map(join),
    tail: tail.lines.reverse().map((line) => join(line.reverse())),
    hiddenChars: totalChars - head.chars - tail.chars,
    hiddenLines,
    totalChars,
    hasMarkers,
  };
}

/**
 * One line of at most `maxColumns`: every invisible run (newlines too) counted, and when it is still
 * longer, its head and tail around `⟨… 49,880 characters not shown …⟩`.
 */
export function fitLine(text: string, maxColumns: number): string {
  const pieces = splitInvisible(text, { isOneLine: true });
  const segments = toLines(pieces)[0] ?? [];
  if (widthOf(segments) <= maxColumns) return join(segments);
  const totalChars = pieces.reduce((sum, piece) => sum + charsOf(piece), 0);
  // The marker's width with the largest count it could hold.
  const room = Math.max(2, maxColumns - cutMarker(totalChars).length);
  const headColumns = Math.ceil(room * 0.6);
  const head = takeColumns(segments, headColumns, false);
  const tail = takeColumns([...segments].reverse(), room - headColumns, true);
  const hidden = totalChars - head.chars - tail.chars;
  return `${join(head.taken)}${cutMarker(hidden)}${join(tail.taken.reverse())}`;
}

/** `47,210 characters` or `47,210 characters on 1,180 lines`. */
export function describeHidden(chars: number, lines: number): string {
  const count = `${formatCount(chars)} character${chars === 1 ? '' : 's'}`;
  return lines === 0 ? count : `${count} on ${formatCount(lines + 1)} lines`;
}

function cutMarker(hiddenChars: number): string {
  return `⟨… ${describeHidden(hiddenChars, 0)} not shown …⟩`;
}

function toLines(pieces: readonly TextPiece[]): Segment[][] {
  const lines: Segment[][] = [[]];
  for (const piece of pieces) {
    if (piece.kind === 'break') lines.push([]);
    else
      lines
        .at(-1)!
        .push({ text: piece.text, chars: piece.chars, isAtomic: piece.kind === 'marker' });
  }
  return lines;
}

function takeRows(
  lines: ReadonlyArray<readonly Segment[]>,
  rows: number,
  budget: BlockBudget,
  rowsOf: (line: readonly Segment[]) => number,
  isFromEnd: boolean,
): { lines: Segment[][]; /** Line breaks included. */ chars: number; breaks: number } {
  const taken: Segment[][] = [];
  let chars = 0;
  let left = rows;
  let wholeLines = 0;
  for (const line of lines) {
    const needed = rowsOf(line);
    if (needed <= left) {
      taken.push([...line]);
      chars += line.reduce((sum, segment) => sum + segment.chars, 0);
      left -= needed;
      wholeLines += 1;
      continue;
    }
    const columns = left * budget.columns - (budget.prefixColumns ?? 0);
    const part = takeColumns(line, columns, isFromEnd);
    if (part.taken.length > 0) taken.push(part.taken);
    chars += part.chars;
    break;
  }
  // Each whole line taken brings the line break on its far side; a cut one ends at the marker.
  const breaks = Math.min(wholeLines, lines.length - 1);
  return { lines: taken, chars: chars + breaks, breaks };
}

/**
 * The segments that fit in `columns`, in the order given (reversed for a tail): a text segment cut at a
 * code point (keeping its end when `isFromEnd`), a marker whole or not at all.
 */
function takeColumns(
  segments: readonly Segment[],
  columns: number,
  isFromEnd: boolean,
): { taken: Segment[]; chars: number } {
  const taken: Segment[] = [];
  let chars = 0;
  let left = columns;
  for (const segment of segments) {
    const width = widthOf([segment]);
    if (width <= left) {
      taken.push(segment);
      chars += segment.chars;
      left -= width;
      continue;
    }
    if (!segment.isAtomic) {
      const part = takeCodePoints(segment.text, left, isFromEnd);
      if (part.chars > 0) taken.push({ text: part.text, chars: part.chars, isAtomic: false });
      chars += part.chars;
    }
    break;
  }
  return { taken, chars };
}

/** As many code points of `text` as fit in `columns`, from its start or its end. */
function takeCodePoints(
  text: string,
  columns: number,
  isFromEnd: boolean,
): { text: string; chars: number } {
  const points = [...text];
  if (isFromEnd) points.reverse();
  const taken: string[] = [];
  let left = columns;
  for (const char of points) {
    const width = charWidth(char);
    if (width > left) break;
    taken.push(char);
    left -= width;
  }
  if (isFromEnd) taken.reverse();
  return { text: taken.join(''), chars: taken.length };
}

function widthOf(segments: readonly Segment[]): number {
  let width = 0;
  for (const segment of segments) for (const char of segment.text) width += charWidth(char);
  return width;
}

function charWidth(char: string): number {
  if (char === '\t') return TAB_COLUMNS;
  return (char.codePointAt(0) ?? 0) >= FIRST_MAYBE_WIDE ? 2 : 1;
}

function charsOf(piece: TextPiece): number {
  return piece.kind === 'break' ? 1 : piece.chars;
}

function join(segments: readonly Segment[]): string {
  return segments.map((segment) => segment.text).join('');
}
