/**
 * Finds where a set of lowercase keywords occur in a text, ignoring ASCII case: one pass of
 * an Aho–Corasick automaton over typed arrays. It finds exactly what a global, case-insensitive
 * (non-Unicode) regular expression alternating the keywords longest first finds when stepped one
 * character after each hit; about twice as fast on the redactor's keywords (see ARCHITECTURE.md).
 */
export interface KeywordScanner {
  /** The keywords, in the order given; hits name them by index. */
  readonly keywords: readonly string[];
  /**
   * Calls `visit` once for every position where a keyword starts, with the longest keyword that
   * starts there, in increasing position. A keyword marked as word-start is only found where the
   * text does not continue a word (the regular expression's `\b`).
   */
  forEachHit(text: string, visit: (start: number, keyword: number) => void): void;
}

export interface KeywordScannerOptions {
  /** Whether a keyword is only found at the start of a word (where `\b` would hold). */
  isWordStart?: (keyword: string) => boolean;
}

// The automaton reads UTF-16 code units; every unit outside ASCII falls into the class of
// characters no keyword holds, as a non-Unicode case-insensitive regex never folds them to ASCII.
const ASCII_UNITS = 128;
const NO_KEYWORD = -1;

/**
 * Compiles keywords into a scanner; throws on an empty or non-lowercase keyword, or one holding a
 * non-ASCII character that has case (the regex would fold it in ways a table cannot).
 */
export function createKeywordScanner(
  keywords: readonly string[],
  options: KeywordScannerOptions = {},
): KeywordScanner {
  for (const keyword of keywords) {
    if (keyword === '' || keyword !== keyword.toLowerCase() || !isFoldable(keyword)) {
      throw new Error(
        `keyword must be non-empty, lowercase, and caseless outside ASCII: ${keyword}`,
      );
    }
  }
  // Hits are packed as start * keywords.length + rank, where rank orders keywords by length, so a
  // numeric sort puts them by start and, at one start, the longest last.
  const byLength = keywords.map((_, index) => index);
  byLength.sort((a, b) => (keywords[a]?.length ?? 0) - (keywords[b]?.length ?? 0) || a - b);
  const rankOf = new Int32Array(keywords.length);
  byLength.forEach((keyword, rank) => (rankOf[keyword] = rank));
  const isWordStart = Uint8Array.from(keywords, (k) => (options.isWordStart?.(k) === true ? 1 : 0));
  const automaton = buildAutomaton(keywords, rankOf, isWordStart);
  return {
    keywords,
    forEachHit(text, visit) {
      if (keywords.length === 0) return;
      const hits = collectHits(text, automaton);
      const scale = keywords.length;
      let index = 0;
      while (index < hits.length) {
        const start = Math.floor((hits[index] as number) / scale);
        let last = index;
        while (last + 1 < hits.length && Math.floor((hits[last + 1] as number) / scale) === start) {
          last += 1;
        }
        // The longest keyword that starts here.
        visit(start, byLength[(hits[last] as number) - start * scale] as number);
        index = last + 1;
      }
    },
  };
}

function isFoldable(keyword: string): boolean {
  for (let i = 0; i < keyword.length; i += 1) {
    const unit = keyword.charCodeAt(i);
    const char = keyword.charAt(i);
    if (unit >= ASCII_UNITS && (char.toUpperCase() !== char || char.toLowerCase() !== char)) {
      return false;
    }
  }
  return true;
}

/** The regular expression's word characters without the Unicode flag: [A-Za-z0-9_]. */
function isWordUnit(unit: number): boolean {
  return (
    (unit >= 97 && unit <= 122) ||
    (unit >= 65 && unit <= 90) ||
    (unit >= 48 && unit <= 57) ||
    unit === 95
  );
}

interface Automaton {
  keywordCount: number;
  classOf: Uint8Array;
  /** Classes of the non-ASCII units keywords hold; every other unit is class 0. */
  classOfWide: ReadonlyMap<number, number>;
  classCount: number;
  /** Next state for (state * classCount + class). */
  next: Int32Array;
  /**
   * The step on an ASCII unit from (state * ASCII_UNITS + unit): the next state's own offset
   * (state * ASCII_UNITS), bitwise-negated when that state ends a keyword, so the common step is
   * one load and one test.
   */
  asciiStep: Int32Array;
  /** For a state that ends a keyword: that keyword's length and rank by length; else -1. */
  lengthAt: Int32Array;
  rankAt: Int32Array;
  /** Whether the keyword a state ends is found only where a word starts. */
  isWordStartAt: Uint8Array;
  /** The state itself if it ends a keyword, else its shorterOutput. */
  firstOutput: Int32Array;
  /** The nearest shorter state (by suffix link) that ends a keyword, or -1. */
  shorterOutput: Int32Array;
}

function buildAutomaton(
  keywords: readonly string[],
  rankOf: Int32Array,
  isWordStart: Uint8Array,
): Automaton {
  const classOf = new Uint8Array(ASCII_UNITS);
  const classOfWide = new Map<number, number>();
  let classCount = 1;
  for (const keyword of keywords) {
    for (let i = 0; i < keyword.length; i += 1) {
      const unit = keyword.charCodeAt(i);
      if (unit >= ASCII_UNITS) {
        if (!classOfWide.has(unit)) classOfWide.set(unit, classCount++);
      } else if (classOf[unit] === 0) {
        classOf[unit] = classCount++;
      }
    }
  }
  const classOfUnit = (unit: number): number =>
    unit < ASCII_UNITS ? (classOf[unit] ?? 0) : (classOfWide.get(unit) ?? 0);
  // Upper-case letters read as their lower-case forms.
  for (let unit = 65; unit <= 90; unit += 1) classOf[unit] = classOf[unit + 32] ?? 0;
  const trie: Int32Array[] = [new Int32Array(classCount).fill(-1)];
  const ending: number[] = [NO_KEYWORD];
  keywords.forEach((keyword, index) => {
    let state = 0;
    for (let i = 0; i < keyword.length; i += 1) {
      const cls = classOfUnit(keyword.charCodeAt(i));
      const row = trie[state] as Int32Array;
      if (row[cls] === -1) {
        row[cls] = trie.length;
        trie.push(new Int32Array(classCount).fill(-1));
        ending.push(NO_KEYWORD);
      }
      state = row[cls] as number;
    }
    if (ending[state] === NO_KEYWORD) ending[state] = index;
  });
  const stateCount = trie.length;
  const next = new Int32Array(stateCount * classCount);
  const fail = new Int32Array(stateCount);
  const shorterOutput = new Int32Array(stateCount).fill(-1);
  const queue: number[] = [];
  const root = trie[0] as Int32Array;
  for (let cls = 1; cls < classCount; cls += 1) {
    const child = root[cls] as number;
    if (child !== -1) {
      next[cls] = child;
      queue.push(child);
    }
  }
  for (let head = 0; head < queue.length; head += 1) {
    const state = queue[head] as number;
    const link = fail[state] as number;
    shorterOutput[state] = ending[link] !== NO_KEYWORD ? link : (shorterOutput[link] as number);
    const row = trie[state] as Int32Array;
    for (let cls = 0; cls < classCount; cls += 1) {
      const child = cls === 0 ? -1 : (row[cls] as number);
      const viaLink = next[link * classCount + cls] as number;
      if (child === -1) {
        next[state * classCount + cls] = viaLink;
      } else {
        fail[child] = viaLink;
        next[state * classCount + cls] = child;
        queue.push(child);
      }
    }
  }
  const lengthAt = Int32Array.from(ending, (k) =>
    k === NO_KEYWORD ? -1 : (keywords[k]?.length ?? 0),
  );
  const rankAt = Int32Array.from(ending, (k) => (k === NO_KEYWORD ? -1 : (rankOf[k] ?? 0)));
  const isWordStartAt = Uint8Array.from(ending, (k) =>
    k === NO_KEYWORD ? 0 : (isWordStart[k] ?? 0),
  );
  const firstOutput = Int32Array.from(ending, (k, state) =>
    k === NO_KEYWORD ? (shorterOutput[state] as number) : state,
  );
  const asciiStep = new Int32Array(stateCount * ASCII_UNITS);
  for (let state = 0; state < stateCount; state += 1) {
    for (let unit = 0; unit < ASCII_UNITS; unit += 1) {
      const target = next[state * classCount + (classOf[unit] as number)] as number;
      asciiStep[state * ASCII_UNITS + unit] =
        firstOutput[target] === -1 ? target * ASCII_UNITS : ~(target * ASCII_UNITS);
    }
  }
  return {
    keywordCount: keywords.length,
    classOf,
    classOfWide,
    classCount,
    next,
    asciiStep,
    lengthAt,
    rankAt,
    isWordStartAt,
    firstOutput,
    shorterOutput,
  };
}

/**
 * Every keyword occurrence that may start where it is (word-start keywords only where a word
 * starts), packed as start * keyword count + rank, in increasing order.
 */
function collectHits(text: string, automaton: Automaton): ArrayLike<number> {
  const { classOfWide, classCount, next, asciiStep, firstOutput, lengthAt, rankAt, shorterOutput } =
    automaton;
  const isWordStartAt = automaton.isWordStartAt;
  const scale = automaton.keywordCount;
  const hits: number[] = [];
  let isSorted = true;
  let previous = -1;
  let offset = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < ASCII_UNITS) {
      offset = asciiStep[offset + unit] as number;
      if (offset >= 0) continue;
      offset = ~offset;
    } else {
      const state = next[
        (offset / ASCII_UNITS) * classCount + (classOfWide.get(unit) ?? 0)
      ] as number;
      offset = state * ASCII_UNITS;
      if (firstOutput[state] === -1) continue;
    }
    for (let output = firstOutput[offset / ASCII_UNITS] as number; output !== -1;) {
      const start = i + 1 - (lengthAt[output] as number);
      if (isWordStartAt[output] === 0 || start === 0 || !isWordUnit(text.charCodeAt(start - 1))) {
        const packed = start * scale + (rankAt[output] as number);
        if (packed < previous) isSorted = false;
        previous = packed;
        hits.push(packed);
      }
      output = shorterOutput[output] as number;
    }
  }
  return isSorted ? hits : Float64Array.from(hits).sort();
}
