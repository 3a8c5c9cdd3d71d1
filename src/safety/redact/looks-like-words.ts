import { Buffer } from 'node:buffer';
import { ENGLISH_TRIGRAM_BITS } from './english-trigrams.js';

// Letters-only runs at least this long are judged by their shape rather than assumed to be words.
const LONG_RUN_CHARS = 12;
/** Runs from this length on are judged inside a long value, where random runs are common. */
export const SHORT_JUDGED_RUN_CHARS = 8;
// camelCase words average four letters or more (`EndOfFileToken`); random mixed case splits into
// pieces of about two (`FiOSRFRoxaWBWyLQ` -> Fi, OSRF, Roxa, WB, ...).
const MIN_AVERAGE_WORD_CHARS = 3.5;
// English text keeps 30-40% vowels (with y); random letters about 23%.
const MIN_WORD_VOWEL_SHARE = 0.2;
// English rarely strings more consonants together (`lengths`); random letters often do.
const MAX_WORD_CONSONANT_RUN = 5;
// One letter triple in this many may be rare (names, abbreviations); random letters miss about
// three in four, so a random run of 16 letters passes about once in 10,000 tries.
const TRIGRAMS_PER_ALLOWED_MISS = 6;
// camelCase split: an acronym before a capitalised word (`HTTPServer`), or one capitalised word.
const CAMEL_WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g;
const TRIGRAMS = Buffer.from(ENGLISH_TRIGRAM_BITS, 'base64');

/**
 * Whether a value reads as words or an identifier (`auth-token`, `X-Api-Key`, `defaultSecret2`)
 * rather than as random characters.
 */
export function looksLikeWords(value: string, minJudgedRun = LONG_RUN_CHARS): boolean {
  // Percent escapes separate words too (`value%23still-query`).
  for (const segment of value.split(/(?:%[0-9A-Fa-f]{2}|[^A-Za-z0-9])+/)) {
    if (segment === '') continue;
    const match = /^([A-Za-z]*)(\d{0,4})$/.exec(segment);
    if (match === null) return false;
    if (!isWordRun(match[1] ?? '', minJudgedRun)) return false;
  }
  return true;
}

function isWordRun(letters: string, minJudgedRun: number): boolean {
  if (letters.length < minJudgedRun) return true;
  // Shorter runs are judged only when their case is mixed up (`kNEFUVysvi`); one-case runs of that
  // length are names and brands (`jetbrains`) as often as not.
  if (
    letters.length < LONG_RUN_CHARS &&
    (letters === letters.toLowerCase() || letters === letters.toUpperCase())
  )
    return true;
  const words = letters.match(CAMEL_WORD) ?? [];
  if (letters.length / words.length < MIN_AVERAGE_WORD_CHARS) return false;
  let vowels = 0;
  let trigrams = 0;
  let rareTrigrams = 0;
  for (const word of words) {
    let consonantRun = 0;
    for (const char of word) {
      if ('aeiouyAEIOUY'.includes(char)) {
        vowels += 1;
        consonantRun = 0;
      } else if (++consonantRun > MAX_WORD_CONSONANT_RUN) {
        return false;
      }
    }
    const lower = word.toLowerCase();
    for (let index = -1; index + 1 < lower.length; index += 1) {
      trigrams += 1;
      if (!isCommonTrigram(lower, index)) rareTrigrams += 1;
    }
  }
  if (rareTrigrams > Math.floor(trigrams / TRIGRAMS_PER_ALLOWED_MISS)) return false;
  return vowels / letters.length >= MIN_WORD_VOWEL_SHARE;
}

/** Whether the letter triple starting at `index` of a lower-case word (-1: the word start) is common. */
function isCommonTrigram(word: string, index: number): boolean {
  const bit =
    symbolAt(word, index) * 784 + symbolAt(word, index + 1) * 28 + symbolAt(word, index + 2);
  return ((TRIGRAMS[bit >> 3] ?? 0) & (1 << (bit & 7))) !== 0;
}

/** 0 before the word, 27 after it, 1-26 for a-z. */
function symbolAt(word: string, index: number): number {
  if (index < 0) return 0;
  if (index >= word.length) return 27;
  return word.charCodeAt(index) - 96;
}
