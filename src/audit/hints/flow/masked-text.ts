/** Bracket and word helpers over masked code (no strings or comments left to confuse them). */
export class MaskedText {
  // For each bracket, the offset of its partner (-1 when unmatched); found in one pass when first asked.
  #partners: Int32Array | null = null;

  constructor(readonly text: string) {}

  /** The offset of the bracket that closes the one at `open` before `limit`, or `limit`. */
  closeOf(open: number, limit = this.text.length): number {
    const partner = this.partners()[open] ?? -1;
    return partner > open && partner < limit ? partner : limit;
  }

  /** The offset of the bracket that opens the one closing at `close`, at or after `floor`, or -1. */
  openOf(close: number, floor = 0): number {
    const partner = this.partners()[close] ?? -1;
    return partner !== -1 && partner < close && partner >= floor ? partner : -1;
  }

  // Brackets of any kind pair like a stack: a closer ends the innermost open bracket.
  private partners(): Int32Array {
    if (this.#partners !== null) return this.#partners;
    const text = this.text;
    const partners = new Int32Array(text.length).fill(-1);
    const stack: number[] = [];
    for (let at = 0; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code === 40 || code === 91 || code === 123) stack.push(at);
      else if (code === 41 || code === 93 || code === 125) {
        const open = stack.pop();
        if (open !== undefined) {
          partners[open] = at;
          partners[at] = open;
        }
      }
    }
    this.#partners = partners;
    return partners;
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
