import { neutralizeControl, showControlCharacter } from './neutralize-control.js';

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
// A marker lists the groups of its run while there are at most this many, and totals them beyond.
const MAX_MARKER_GROUPS = 3;
// An escape sequence shown inside its marker up to this many characters.
const MAX_SHOWN_SEQUENCE_CHARS = 40;
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

const NAMES: Readonly<Record<string, string | undefined>> = {
  '\u00a0': 'no-break space',
  '\u00ad': 'soft hyphen',
  '\u061c': 'Arabic letter mark',
  '\u1680': 'ogham space',
  '\u180e': 'Mongolian vowel separator',
  '\u2007': 'figure space',
  '\u2008': 'punctuation space',
  '\u2009': 'thin space',
  '\u200a': 'hair space',
  '\u200b': 'zero-width space',
  '\u200c': 'zero-width non-joiner',
  '\u200d': 'zero-width joiner',
  '\u200e': 'left-to-right mark',
  '\u200f': 'right-to-left mark',
  '\u2028': 'line separator',
  '\u2029': 'paragraph separator',
  '\u202a': 'left-to-right embedding',
  '\u202b': 'right-to-left embedding',
  '\u202c': 'pop directional formatting',
  '\u202d': 'left-to-right override',
  '\u202e': 'right-to-left override',
  '\u202f': 'narrow no-break space',
  '\u205f': 'medium mathematical space',
  '\u2060': 'word joiner',
  '\u2066': 'left-to-right isolate',
  '\u2067': 'right-to-left isolate',
  '\u2068': 'first strong isolate',
  '\u2069': 'pop directional isolate',
  '\u3000': 'ideographic space',
  '\u3164': 'Hangul filler',
  '\u2800': 'braille blank',
  '\ufeff': 'zero-width no-break space',
  '\u27e8': 'left angle bracket',
  '\u27e9': 'right angle bracket',
};
// Names shared by a range of code points: [first, last, name].
const RANGE_NAMES: ReadonlyArray<readonly [number, number, string]> = [
  [0x2000, 0x2006, 'space'],
  [0xfe00, 0xfe0f, 'variation selector'],
  [0xe0000, 0xe007f, 'tag character'],
  [0xe0100, 0xe01ef, 'variation selector'],
];

/** One invisible unit: a character, or a whole escape sequence. */
interface Unit {
  key: string;
  chars: number;
  isSequence?: true;
}

/** The text as pieces a preview can show and cut (see TextPiece). */
export function splitInvisible(text: string, options: ShowInvisibleOptions = {}): TextPiece[] {
  const pieces: TextPiece[] = [];
  let visible = '';
  let visibleChars = 0;
  let run: Unit[] = [];
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
function showRun(run: readonly Unit[], options: ShowInvisibleOptions): TextPiece[] {
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

function isGap(unit: Unit): boolean {
  return unit.key === ' ' || unit.key === '\t';
}

function showPlain(run: readonly Unit[]): TextPiece[] {
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

function markerOf(run: readonly Unit[], isExact: boolean): TextPiece {
  // One group reads the same in either form.
  const single = run.length === 1 ? SINGLE_MARKERS.get(run[0]!.key) : undefined;
  if (single !== undefined) return single;
  const marker = describeRun(run, isExact);
  if (run.length === 1 && SINGLE_MARKERS.size < MAX_CACHED_MARKERS)
    SINGLE_MARKERS.set(run[0]!.key, marker);
  return marker;
}

// One character alone is the common marker (a zero-width space in a word): its text is kept, not rebuilt.
const MAX_CACHED_MARKERS = 512;
const SINGLE_MARKERS = new Map<string, TextPiece>();

function describeRun(run: readonly Unit[], isExact: boolean): TextPiece {
  const groups = groupUnits(run);
  const chars = run.reduce((sum, unit) => sum + unit.chars, 0);
  const text =
    isExact || groups.length <= MAX_MARKER_GROUPS
      ? `⟨${groups.map(describeGroup).join(' + ')}⟩`
      : `⟨${describeTotals(run, chars)}⟩`;
  return { kind: 'marker', text, chars };
}

function isPlain(run: readonly Unit[], isOneLine: boolean): boolean {
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

interface Group {
  unit: Unit;
  count: number;
}

function groupUnits(run: readonly Unit[]): Group[] {
  const groups: Group[] = [];
  for (const unit of run) {
    const last = groups.at(-1);
    if (last?.unit.key === unit.key) last.count += 1;
    else groups.push({ unit, count: 1 });
  }
  return groups;
}

function describeGroup({ unit, count }: Group): string {
  const plain = PLAIN_NAMES[unit.key];
  if (plain !== undefined) return `${formatCount(count)} ${count === 1 ? plain : `${plain}s`}`;
  const name = nameOf(unit);
  return count === 1 ? name : `${formatCount(count)} × ${name}`;
}

/** Past a few groups: how many characters in all, and how many of each kind. */
function describeTotals(run: readonly Unit[], chars: number): string {
  // Every escape sequence counts as one kind here; each character is its own kind.
  const totals = new Map<string, Group>();
  for (const unit of run) {
    const kind = unit.isSequence ? '\u001b' : unit.key;
    const group = totals.get(kind);
    if (group === undefined) totals.set(kind, { unit, count: 1 });
    else group.count += 1;
  }
  const listed = [...totals.values()].slice(0, MAX_MARKER_GROUPS).map((group) => {
    if (group.unit.isSequence)
      return `${formatCount(group.count)} escape sequence${group.count === 1 ? '' : 's'}`;
    return describeGroup(group);
  });
  const more = totals.size - listed.length;
  const rest = more > 0 ? `, ${more} other kind${more === 1 ? '' : 's'}` : '';
  return `${formatCount(chars)} invisible characters: ${listed.join(', ')}${rest}`;
}

const PLAIN_NAMES: Readonly<Record<string, string | undefined>> = {
  ' ': 'space',
  '\t': 'tab',
  '\n': 'newline',
};

/** `^M`, `U+200B zero-width space`, `^[[2J` (an escape sequence): a name a person can look up. */
function nameOf({ key, isSequence }: Unit): string {
  if (isSequence) {
    const shown = neutralizeControl(key, { lineBreaks: 'show' });
    const cut =
      shown.length > MAX_SHOWN_SEQUENCE_CHARS
        ? `${shown.slice(0, MAX_SHOWN_SEQUENCE_CHARS - 1)}…`
        : shown;
    return cut;
  }
  const control = showControlCharacter(key);
  if (control !== undefined && !control.startsWith('<')) return control;
  const point = key.codePointAt(0) ?? 0;
  const code = `U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
  const ranged = RANGE_NAMES.find(([first, last]) => point >= first && point <= last)?.[2];
  const name = NAMES[key] ?? ranged ?? (MARK.test(key) ? 'combining mark' : undefined);
  return name === undefined ? code : `${code} ${name}`;
}

/** `8,000`: a count with thousands separators (toLocaleString is slow enough to matter per marker). */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(?:\d{3})+$)/gu, ',');
}
