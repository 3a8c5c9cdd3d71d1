// Runs this long or longer count: `abc`, `321`, `aaa`; a random value has few (about one character
// in forty of random hex sits in one).
const MIN_RUN_CHARS = 3;
// Keyboard rows typed in order (`qwerty`, `asdf`) are runs too, from this length.
const MIN_KEYBOARD_RUN_CHARS = 4;
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];

/**
 * The share of a value's characters that sit in a made-up run: counting up or down (`abc123`,
 * `zyx`, `aBcD`), one character repeated (`xxxx`), a keyboard row (`qwerty`), or two counts interleaved
 * (`a1b2c3`). Typed stand-ins are mostly runs; generated values almost never are.
 */
export function madeUpRunShare(value: string): number {
  if (value.length === 0) return 0;
  const covered = new Uint8Array(value.length);
  markSteppedRuns(value, 1, covered);
  markSteppedRuns(value, 2, covered);
  markKeyboardRuns(value.toLowerCase(), covered);
  let count = 0;
  for (const flag of covered) count += flag;
  return count / value.length;
}

/** The length of the longest run counting up or down by one (`abcdefgh`, `98765`, `aBcD`). */
export function longestCountingRun(value: string): number {
  let longest = value.length === 0 ? 0 : 1;
  let length = 1;
  let step = Number.NaN;
  for (let index = 1; index < value.length; index += 1) {
    const delta = stepBetween(value, index - 1, index);
    if (Math.abs(delta) === 1 && (delta === step || length === 1)) length += 1;
    else length = Math.abs(delta) === 1 ? 2 : 1;
    step = delta;
    longest = Math.max(longest, length);
  }
  return longest;
}

// Letter rows of the keyboard; hex (a-f) cannot type five keys along any of them.
const LETTER_ROWS = KEYBOARD_ROWS.slice(0, 3);

/**
 * The length of the run of keys typed along a letter row (`zxcvb`, `asdfg`, `QWERT`, `Qwert`) that
 * opens or closes a value, in one case as people type it; 0 when there is none. Random letters
 * spell a row in mixed case (`tyUIo`) as often as in one, so a change of case ends the run (a
 * capital may open the value: `Qwerty`).
 */
export function edgeKeyboardRun(value: string): number {
  let longest = 0;
  for (const row of LETTER_ROWS) {
    longest = Math.max(
      longest,
      rowRunFrom(value, row, 0, 1),
      rowRunFrom(value, row, value.length - 1, -1),
    );
  }
  return longest;
}

/** How many keys of `row`, in row order and one case, the value holds from `start` walking by `step`. */
function rowRunFrom(value: string, row: string, start: number, step: 1 | -1): number {
  let length = 0;
  let previous = -1;
  let isUpper: boolean | undefined;
  for (let index = start; index >= 0 && index < value.length; index += step) {
    const char = value[index] ?? '';
    const position = row.indexOf(char.toLowerCase());
    if (position === -1 || (length > 0 && position !== previous + step)) break;
    const upper = char !== char.toLowerCase();
    // The value's first letter may be a capital before a lower-case run (`Qwerty`).
    if (index !== 0 || step === -1) {
      if (isUpper !== undefined && upper !== isUpper) break;
      isUpper = upper;
    }
    previous = position;
    length += 1;
  }
  return length;
}

/** Marks runs whose characters, `stride` apart, step by -1, 0 or +1 within one character class. */
function markSteppedRuns(value: string, stride: number, covered: Uint8Array): void {
  for (let offset = 0; offset < stride; offset += 1) {
    let start = offset;
    let step = Number.NaN;
    // NaN never equals NaN, so a character that does not continue a run always ends one.
    for (let index = offset + stride; index < value.length + stride; index += stride) {
      let delta = index < value.length ? stepBetween(value, index - stride, index) : Number.NaN;
      // Interleaved, only counting counts (`a1b2c3`): interleaved repeats are common by chance.
      if (stride > 1 && delta === 0) delta = Number.NaN;
      if (delta === step) continue;
      markRun(start, index - stride, stride, covered);
      start = index - stride;
      step = delta;
    }
  }
}

/** Marks the characters `first, first + stride, ..., last` if there are enough of them. */
function markRun(first: number, last: number, stride: number, covered: Uint8Array): void {
  if ((last - first) / stride + 1 < MIN_RUN_CHARS) return;
  for (let index = first; index <= last; index += stride) covered[index] = 1;
}

/** -1, 0 or +1 when two characters of one class count down, repeat or count up; otherwise NaN. */
function stepBetween(value: string, a: number, b: number): number {
  const from = value.charCodeAt(a);
  const to = value.charCodeAt(b);
  const delta = to - from;
  if (delta === 0) return 0;
  if (classOf(from) === 0 || classOf(to) === 0) return Number.NaN;
  // Counting letters may change case as it goes (`aBcDeF`); a repeat must keep its case.
  const folded = (to | 32) - (from | 32);
  const isLetterStep = classOf(from) !== 1 && classOf(to) !== 1 && Math.abs(folded) === 1;
  if (isLetterStep) return folded;
  if (Math.abs(delta) !== 1 || classOf(from) !== classOf(to)) return Number.NaN;
  return delta;
}

function markKeyboardRuns(lower: string, covered: Uint8Array): void {
  for (const row of KEYBOARD_ROWS) {
    let start = 0;
    for (let index = 1; index <= lower.length; index += 1) {
      const previous = row.indexOf(lower[index - 1] ?? '');
      const current = index < lower.length ? row.indexOf(lower[index] ?? '') : -1;
      if (previous !== -1 && current === previous + 1) continue;
      if (index - start >= MIN_KEYBOARD_RUN_CHARS) covered.fill(1, start, index);
      start = index;
    }
  }
}

function classOf(code: number): number {
  if (code >= 48 && code <= 57) return 1;
  if (code >= 65 && code <= 90) return 2;
  if (code >= 97 && code <= 122) return 3;
  return 0;
}
