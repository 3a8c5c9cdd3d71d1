import { describeMarker, type InvisibleUnit } from './describe-invisible.js';

/**
 * Untrusted text a person is about to approve, as pieces: visible text shown as itself, line breaks,
 * and runs of invisible characters (whitespace padding, format and bidirectional characters, control
 * characters and whole escape sequences, stacked combining marks) each shown as one counted marker
 * such as `⟨8,000 spaces⟩`. `chars` counts the original's code points, so what is cut can be counted.
 */
export type TextPiece =
  | { kind: 'text'; text: string; chars: number }
  | { kind: 'break' }
  | { kind: 'marker'; text: string; chars: number };

export interface ShowInvisibleOptions {
  /** One line (summaries, progress lines): every newline is part of a marker. */
  isOneLine?: boolean;
  /** Each marker lists every group of its run in order, however many (the whole view); else past three, totals. */
  isExact?: boolean;
}

// Spaces and tabs shown as themselves while a gap is at most this wide (a tab counted as 8 columns).
const MAX_PLAIN_GAP_COLUMNS = 16;
const TAB_COLUMNS = 8;
// Newlines shown as line breaks while a run has at most this many (two blank lines).
const MAX_PLAIN_NEWLINES = 3;
// Combining marks shown on their letter while at most this many are stacked (Vietnamese needs two).
const MAX_SHOWN_MARKS = 2;
// OSC, DCS and their kin end within this many characters, or their ESC is taken alone.
const MAX_STRING_SEQUENCE_CHARS = 512;

// Whitespace other than space, tab and newline; format characters (zero-width, bidirectional, tags,
// soft hyphen, BOM); controls; private-use, unassigned and surrogate code points.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/u;
// Letters and marks fonts draw as nothing: Hangul fillers, braille blank, combining grapheme joiner.
const DRAWN_AS_NOTHING = new Set(['\u115f', '\u1160', '\u3164', '\uffa0', '\u2800', '\u034f']);
const MARK = /\p{M}/u;
// A mark may sit on a letter, a digit or a symbol (accents, keycaps, emoji variation selectors).
const MARK_BASE = /[\p{L}\p{N}\p{S}]/u;
// The marker brackets themselves: a literal one in the text is shown as a code point, so no marker can be forged.
const MARKER_BRACKETS = new Set(['\u27e8', '\u27e9']);

// ESC (or its 8-bit form) with what follows it as one unit: CSI, then OSC/DCS/SOS/PM/APC strings of
// printable ASCII (so a marker never holds a bracket of its own), then two-byte forms.
const ESCAPE_SEQUENCES = [
  // eslint-disable-next-line no-control-regex -- an escape sequence starts with ESC
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]/uy,
  new RegExp(
    `(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d-\\u009f])[ -~]{0,${MAX_STRING_SEQUENCE_CHARS}}(?:\\u0007|\\u001b\\\\|\\u009c)`,
    'uy',
  ),
  // eslint-disable-next-line no-control-regex -- an escape sequence starts with ESC
  /\u001b[ -/]*[0-~]/uy,
];

/** The text as pieces a preview can show and cut (see TextPiece). */
export function splitInvisible(text: string, options: ShowInvisibleOptions = {}): TextPiece[] {
  const pieces: TextPiece[] = [];
  let visible = '';
  let visibleChars = 0;
  let run: InvisibleUnit[] = [];
  let stackedMarks = 0;
  let previous = '';
  const flushVisible = () => {
    if (visible !== '') pieces.push({ kind: 'text', text: visible, chars: visibleChars });
    visible = '';
    visibleChars = 0;
  };
  const flushRun = () => {
    if (run.length === 0) return;
    flushVisible();
    pieces.push(...showRun(run, options));
    run = [];
  };
  let index = 0;
  while (index < text.length) {
    const sequence = matchEscapeSequence(text, index);
    if (sequence !== undefined) {
      run.push({ key: sequence, chars: [...sequence].length, isSequence: true });
      index += sequence.length;
      previous = '';
      continue;
    }
    const code = text.charCodeAt(index);
    if (code > 0x20 && code < 0x7f) {
      // Printable ASCII, most of any command: visible, and a base for a mark.
      flushRun();
      previous = text.charAt(index);
      visible += previous;
      visibleChars += 1;
      stackedMarks = 0;
      index += 1;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(index) ?? 0);
    index += char.length;
    const isMark = MARK.test(char);
    stackedMarks = isMark ? stackedMarks + 1 : 0;
    const isShownMark = isMark && stackedMarks <= MAX_SHOWN_MARKS && MARK_BASE.test(previous);
    if (!isMark) previous = char;
    if (isWhitespaceOrHidden(char) || (isMark && !isShownMark) || MARKER_BRACKETS.has(char)) {
      run.push({ key: char, chars: 1 });
      if (isMark) previous = '';
      continue;
    }
    flushRun();
    visible += char;
    visibleChars += 1;
  }
  flushRun();
  flushVisible();
  return pieces;
}

/** The whole text on one string, every invisible run a counted marker. */
export function showInvisible(text: string, options: ShowInvisibleOptions = {}): string {
  return splitInvisible(text, options)
    .map((piece) => (piece.kind === 'break' ? '\n' : piece.text))
    .join('');
}

function isWhitespaceOrHidden(char: string): boolean {
  return (
    char === ' ' ||
    char === '\t' ||
    char === '\n' ||
    INVISIBLE.test(char) ||
    DRAWN_AS_NOTHING.has(char)
  );
}

function matchEscapeSequence(text: string, index: number): string | undefined {
  const code = text.charCodeAt(index);
  if (code !== 0x1b && (code < 0x90 || code > 0x9f)) return undefined;
  for (const pattern of ESCAPE_SEQUENCES) {
    pattern.lastIndex = index;
    const match = pattern.exec(text);
    if (match !== null) return match[0];
  }
  return undefined;
}

/**
 * A run of spaces, tabs and a few newlines as itself; anything else as one marker, with the short
 * gaps of spaces or tabs at its two ends left as they are (`bidi ⟨U+202E right-to-left override⟩`).
 */
function showRun(run: readonly InvisibleUnit[], options: ShowInvisibleOptions): TextPiece[] {
  if (isPlain(run, options.isOneLine === true)) return showPlain(run);
  const isExact = options.isExact === true;
  if (run.length === 1) return [markerOf(run, isExact)];
  let start = 0;
  while (start < run.length && isGap(run[start]!)) start += 1;
  let end = run.length;
  while (end > start && isGap(run[end - 1]!)) end -= 1;
  const before = run.slice(0, start);
  const after = run.slice(end);
  const middle = run.slice(
    isPlain(before, true) ? start : 0,
    isPlain(after, true) ? end : run.length,
  );
  return [
    ...(middle[0] === run[0] ? [] : showPlain(before)),
    markerOf(middle, isExact),
    ...(middle.at(-1) === run.at(-1) ? [] : showPlain(after)),
  ];
}

function isGap(unit: InvisibleUnit): boolean {
  return unit.key === ' ' || unit.key === '\t';
}

function showPlain(run: readonly InvisibleUnit[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  let gap = '';
  for (const unit of run) {
    if (unit.key !== '\n') {
      gap += unit.key;
      continue;
    }
    if (gap !== '') pieces.push({ kind: 'text', text: gap, chars: gap.length });
    gap = '';
    pieces.push({ kind: 'break' });
  }
  if (gap !== '') pieces.push({ kind: 'text', text: gap, chars: gap.length });
  return pieces;
}

function markerOf(run: readonly InvisibleUnit[], isExact: boolean): TextPiece {
  // One group reads the same in either form.
  const single = run.length === 1 ? SINGLE_MARKERS.get(run[0]!.key) : undefined;
  if (single !== undefined) return single;
  const chars = run.reduce((sum, unit) => sum + unit.chars, 0);
  const marker: TextPiece = { kind: 'marker', text: describeMarker(run, chars, isExact), chars };
  if (run.length === 1 && SINGLE_MARKERS.size < MAX_CACHED_MARKERS)
    SINGLE_MARKERS.set(run[0]!.key, marker);
  return marker;
}

// One character alone is the common marker (a zero-width space in a word): its text is kept, not rebuilt.
const MAX_CACHED_MARKERS = 512;
const SINGLE_MARKERS = new Map<string, TextPiece>();

function isPlain(run: readonly InvisibleUnit[], isOneLine: boolean): boolean {
  let newlines = 0;
  let columns = 0;
  for (const unit of run) {
    if (unit.key === '\n') {
      newlines += 1;
      columns = 0;
      if (isOneLine || newlines > MAX_PLAIN_NEWLINES) return false;
    } else if (unit.key === ' ' || unit.key === '\t') {
      columns += unit.key === '\t' ? TAB_COLUMNS : 1;
      if (columns > MAX_PLAIN_GAP_COLUMNS) return false;
    } else return false;
  }
  return true;
}
