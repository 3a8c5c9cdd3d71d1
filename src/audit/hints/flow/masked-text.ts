const OPENERS = '([{';
const CLOSERS = ')]}';

/** Bracket and word helpers over masked code (no strings or comments left to confuse them). */
export class MaskedText {
  constructor(readonly text: string) {}

  /** The offset of the bracket that closes the one at `open`, or the end of the text. */
  closeOf(open: number, limit = this.text.length): number {
    const text = this.text;
    let depth = 0;
    for (let at = open; at < limit; at++) {
      const code = text[at] ?? '';
      if (OPENERS.includes(code)) depth++;
      else if (CLOSERS.includes(code)) {
        depth--;
        if (depth === 0) return at;
      }
    }
    return limit;
  }

  /** The offset of the bracket that opens the one closing at `close`, or -1. */
  openOf(close: number, floor = 0): number {
    const text = this.text;
    let depth = 0;
    for (let at = close; at >= floor; at--) {
      const code = text[at] ?? '';
      if (CLOSERS.includes(code)) depth++;
      else if (OPENERS.includes(code)) {
        depth--;
        if (depth === 0) return at;
      }
    }
    return -1;
  }

  /** The first offset at or after `at` that is not white space (newlines included). */
  skipSpace(at: number, limit = this.text.length): number {
    const text = this.text;
    while (at < limit && /\s/.test(text[at] ?? '')) at++;
    return at;
  }

  /** The last offset before `at` that is not white space, or -1. */
  lastNonSpace(at: number, floor = 0): number {
    const text = this.text;
    let i = at - 1;
    while (i >= floor && /\s/.test(text[i] ?? '')) i--;
    return i;
  }

  /** The identifier-like word starting at `at` (`$` and `@` allowed for PHP and Ruby), or ''. */
  wordAt(at: number): string {
    const match = /[$@]?[A-Za-z_][\w$]*/y;
    match.lastIndex = at;
    return match.exec(this.text)?.[0] ?? '';
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }
}
