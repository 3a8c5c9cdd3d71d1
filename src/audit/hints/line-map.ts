/**
 * Line numbers and bounds of a text, found on demand and only as far into the text as asked:
 * most files never need them, and most that do need only the lines up to their last hit.
 */
export class LineMap {
  readonly #text: string;
  readonly #starts: number[] = [0];
  #isComplete = false;

  constructor(text: string) {
    this.#text = text;
  }

  get lineCount(): number {
    this.#extendTo(Number.POSITIVE_INFINITY, this.#text.length);
    return this.#starts.length;
  }

  /** Whether the text has a 1-based line `line`, reading only as far as that line. */
  hasLine(line: number): boolean {
    this.#extendTo(line, -1);
    return this.#starts.length >= line;
  }

  /** The 1-based line holding a character offset. */
  lineOf(offset: number): number {
    this.#extendTo(0, offset);
    const starts = this.#starts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  /** Offset of the first character of a 1-based line (clamped to the file). */
  startOf(line: number): number {
    this.#extendTo(line, -1);
    const starts = this.#starts;
    return starts[Math.min(Math.max(line, 1), starts.length) - 1] ?? 0;
  }

  /** Offset just past the last character of a 1-based line, before its `\n` (and `\r`). */
  endOf(line: number): number {
    this.#extendTo(line + 1, -1);
    const starts = this.#starts;
    const clamped = Math.min(Math.max(line, 1), starts.length);
    let end = clamped < starts.length ? (starts[clamped] ?? 0) - 1 : this.#text.length;
    if (end > 0 && this.#text.charCodeAt(end - 1) === 13) end -= 1;
    return Math.max(end, this.startOf(clamped));
  }

  /** The text of a 1-based line, without its line break. */
  textOf(line: number): string {
    return this.#text.slice(this.startOf(line), this.endOf(line));
  }

  // Records line starts until there are `lineCount` of them and one lies beyond `offset`.
  #extendTo(lineCount: number, offset: number): void {
    const starts = this.#starts;
    if (this.#isComplete) return;
    let last = starts[starts.length - 1] ?? 0;
    while (starts.length < lineCount || last <= offset) {
      const at = this.#text.indexOf('\n', last);
      if (at === -1) {
        this.#isComplete = true;
        return;
      }
      last = at + 1;
      starts.push(last);
    }
  }
}
