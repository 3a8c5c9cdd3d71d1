import type { TokenEncoding } from '../../config/token-encoding.js';

export {
  DEFAULT_TOKEN_ENCODING,
  TOKEN_ENCODINGS,
  type TokenEncoding,
} from '../../config/token-encoding.js';

/** Counts tokenizer tokens; owns WebAssembly memory until `free()`. */
export interface TokenCounter {
  readonly encoding: TokenEncoding;
  /** Tokens of `text`, as `encode_ordinary(text).length` (special-token text counts as ordinary text). */
  count(text: string): number;
  /**
   * Tokens per line: line n (1-based) at index n-1. A line runs from its first character
   * through its `\n` inclusive (so `\r\n` belongs to the line it ends); the last line may
   * lack a `\n`. The array's length is the file's line count: `''` has 0 lines, `'a\n'` 1,
   * `'a\nb'` 2. The sum over any run of lines is at least the tokens of that run's text,
   * so a chunk built from line ranges never exceeds its budget (see `countLineTokens`).
   */
  countLines(text: string): number[];
  /**
   * `count(text)` and `countLines(text)` at about the cost of `countLines` alone: for a file
   * that will likely be split, so it is not counted twice.
   */
  countWithLines(text: string): { tokens: number; lineTokens: number[] };
  /** Releases the encoder; the counter must not be used afterwards. */
  free(): void;
}
