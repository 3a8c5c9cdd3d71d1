import { neutralizeControl, showControlCharacter } from './neutralize-control.js';

/** One invisible unit of a run: a character, or a whole escape sequence. */
export interface InvisibleUnit {
  key: string;
  chars: number;
  isSequence?: true;
}

// A marker lists the groups of its run while there are at most this many, and totals them beyond.
const MAX_MARKER_GROUPS = 3;
// An escape sequence shown inside its marker up to this many characters.
const MAX_SHOWN_SEQUENCE_CHARS = 40;
const MARK = /\p{M}/u;

// Names for the invisible characters a person would not know by their code point.
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

/**
 * The marker of a run of invisible units: its groups of the same unit in order (`⟨1 newline + 8,000
 * spaces⟩`), or past three groups, unless `isExact`, how many characters of each kind.
 */
export function describeMarker(
  run: readonly InvisibleUnit[],
  chars: number,
  isExact: boolean,
): string {
  const groups = groupUnits(run);
  return isExact || groups.length <= MAX_MARKER_GROUPS
    ? `⟨${groups.map(describeGroup).join(' + ')}⟩`
    : `⟨${describeTotals(run, chars)}⟩`;
}

interface Group {
  unit: InvisibleUnit;
  count: number;
}

function groupUnits(run: readonly InvisibleUnit[]): Group[] {
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
function describeTotals(run: readonly InvisibleUnit[], chars: number): string {
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
function nameOf({ key, isSequence }: InvisibleUnit): string {
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
