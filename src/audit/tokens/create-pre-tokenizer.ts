import type { TokenEncoding } from './token-counter.js';

// Rust's `(?i:'s|'t|'re|'ve|'m|'ll|'d)` spelled without inline flags, which Node 20 lacks.
// Unicode simple case folding maps `s` to `S` and `ſ` (U+017F); the other letters fold only to ASCII.
const CONTRACTION = "(?:'(?:[sS\\u017F]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))";

// Rust's Unicode `\s` is White_Space; JavaScript's `\s` differs (it adds U+FEFF and lacks U+0085).
const SPACE = '\\p{White_Space}';
const NOT_SPACE = '\\P{White_Space}';

// o200k_base's `pat_str` from tiktoken, rewritten for JavaScript's `u` flag.
const O200K_PATTERN = [
  `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+${CONTRACTION}?`,
  `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*${CONTRACTION}?`,
  '\\p{N}{1,3}',
  ` ?[^${SPACE}\\p{L}\\p{N}]+[\\r\\n/]*`,
  `${SPACE}*[\\r\\n]+`,
  `${SPACE}+(?!${NOT_SPACE})`,
  `${SPACE}+`,
].join('|');

// cl100k_base's `pat_str` from tiktoken, rewritten the same way.
const CL100K_PATTERN = [
  CONTRACTION,
  '[^\\r\\n\\p{L}\\p{N}]?\\p{L}+',
  '\\p{N}{1,3}',
  ` ?[^${SPACE}\\p{L}\\p{N}]+[\\r\\n]*`,
  `${SPACE}*[\\r\\n]+`,
  `${SPACE}+(?!${NOT_SPACE})`,
  `${SPACE}+`,
].join('|');

const PATTERNS: Record<TokenEncoding, string> = {
  o200k_base: O200K_PATTERN,
  cl100k_base: CL100K_PATTERN,
};

/**
 * A fresh global (or, with `'y'`, sticky) RegExp that splits text into the same pieces as the
 * encoding's own pre-tokenizer. BPE never merges across pieces, so a text's token count is the sum of
 * its pieces' counts.
 */
export function createPreTokenizer(encoding: TokenEncoding, mode: 'g' | 'y' = 'g'): RegExp {
  return new RegExp(PATTERNS[encoding], `${mode}u`);
}
