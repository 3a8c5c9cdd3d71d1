import { Buffer } from 'node:buffer';
import { ENGLISH_TRIGRAM_BITS } from './english-trigrams.js';

// Letters-only runs at least this long are judged by their shape rather than assumed to be words.
const LONG_RUN_CHARS = 12;
/** Runs from this length on are judged inside a long value, where random runs are common. */
export const SHORT_JUDGED_RUN_CHARS = 8;
/**
 * Where a value may be a name (`auth-token`, `user@example`) or what is left of a stand-in around
 * its marker word, mixed-case runs are judged from this length (one-case runs are names and brands as
 * often as not): random runs of 4 to 11 letters read as camelCase words about once in 800, and the
 * pieces of a typed password or of a random URL-safe value are short (`rJNQ_rBIekZ_egAj47`,
 * `qZUNZdUskm@n5`, `fQ-iLElDf5-Iftqidn`). Code keeps the longer judged runs: member paths hold short
 * camel pieces (`jQuery.expando`, `ctx.atKey`).
 */
export const NAME_JUDGED_RUN_CHARS = 4;
// camelCase words average four letters or more (`EndOfFileToken`); random mixed case splits into
// pieces of about two (`FiOSRFRoxaWBWyLQ` -> Fi, OSRF, Roxa, WB, ...).
const MIN_AVERAGE_WORD_CHARS = 3.5;
// From 20 letters, names average four or more (6 of 4,450 long camelCase names in node_modules
// do not); a long random run with a few shouted pieces can reach 3.5 (`RokwkLlij…AINSERt`).
const LONG_NAME_RUN_CHARS = 20;
const MIN_LONG_AVERAGE_WORD_CHARS = 4;
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
// Mixed-case names average at least this many letters a piece, acronyms and one-letter words included.
const MIN_MIXED_NAME_PIECE_CHARS = 2;

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

/**
 * Whether a value's letters switch case the way typed passwords do, not the way names do: mixed-case
 * names are made of words (`X-Api-Key`: 2.3 letters a piece), `kfn_mF88_QW.@K7` of letters (1.6).
 */
export function isCaseScrambled(value: string): boolean {
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value)) return false;
  const pieces = value.match(CAMEL_WORD) ?? [];
  const letters = pieces.join('').length;
  return letters / pieces.length < MIN_MIXED_NAME_PIECE_CHARS;
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
  const minAverage =
    letters.length >= LONG_NAME_RUN_CHARS ? MIN_LONG_AVERAGE_WORD_CHARS : MIN_AVERAGE_WORD_CHARS;
  if (letters.length / words.length < minAverage) return false;
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

// Letter runs this long are judged by `isMostlyWords`, lower-cased (`hellOworld` reads as `helloworld`).
const MIN_PHRASE_RUN_CHARS = 5;
// Words must come as two runs or more, or one run this long (`SlackAppConfigurationAccessToken`).
const MIN_LONE_WORD_RUN_CHARS = 10;
// Letters that read as English must be this share of the judged letters and this share of all
// letters and digits, and at least this many.
const MIN_WORD_LETTER_SHARE = 0.7;
const MIN_WORD_ALNUM_SHARE = 0.5;
// One run of words must be most of the value (`clm90949:AgencyIdentificationCodeContentType`).
const MIN_LONE_RUN_ALNUM_SHARE = 0.75;
const MIN_WORD_LETTERS = 14;
// A phrase run may miss one common triple in this many (a name, a joint between two words).
const PHRASE_TRIGRAMS_PER_ALLOWED_MISS = 12;
const MIN_PHRASE_PIECE_CHARS = 3;
// English keeps 30-40% vowels (with y), short words like `length` less; random letters about 23%.
const MIN_PHRASE_VOWEL_SHARE = 0.2;

/**
 * Whether most of a value's letters are English words, whatever their case, digits and separators
 * (`hellOworld380_testin`, `Need5_T00-be-exactly-40-chars`, `SlackAppConfigurationAccessTokenHere`):
 * written by a person, not generated. Random letters miss about three common triples in four, so a
 * random run of four letters passes about once in a thousand, and ten letters of them never.
 */
export function isMostlyWords(value: string): boolean {
  // Upper case alone is how generated ids look (`API-` and 26 upper case); phrases have lower case.
  if (!/[a-z]/.test(value)) return false;
  let judged = 0;
  let words = 0;
  let vowels = 0;
  let wordRuns = 0;
  let longest = 0;
  for (const run of value.match(/[A-Za-z]+/g) ?? []) {
    if (run.length < MIN_PHRASE_RUN_CHARS) continue;
    judged += run.length;
    if (!readsAsEnglish(run)) continue;
    words += run.length;
    vowels += run.match(/[aeiouy]/gi)?.length ?? 0;
    wordRuns += 1;
    longest = Math.max(longest, run.length);
  }
  if (wordRuns < 2 && longest < MIN_LONE_WORD_RUN_CHARS) return false;
  if (words < MIN_WORD_LETTERS || words < judged * MIN_WORD_LETTER_SHARE) return false;
  if (vowels < words * MIN_PHRASE_VOWEL_SHARE) return false;
  const alnum = value.match(/[A-Za-z0-9]/g)?.length ?? 0;
  return words >= alnum * (wordRuns < 2 ? MIN_LONE_RUN_ALNUM_SHARE : MIN_WORD_ALNUM_SHARE);
}

// Three words joined by separators (`some-other-thing`) make a phrase; each word this long or more.
const MIN_PHRASE_WORDS = 3;
// Letters and digits before a phrase in the middle of a value, for it to count.
const MIN_PHRASE_LEAD_CHARS = 8;
const PHRASE = /(?:^|[^A-Za-z0-9])((?:[A-Za-z]{3,12}[-_. ]){2,}[A-Za-z]{3,12})(?![A-Za-z0-9])/g;

/**
 * Whether a value holds a phrase after other text: three or more words, each in one case and
 * reading as English, joined by `-`, `_`, `.` or a space, at the end or after a random part
 * (`57220039:Abbz...-some-other-thing`). People append these to stand-ins; random URL-safe values
 * almost never hold three word-shaped runs between separators. A phrase that opens the value is a
 * vendor's prefix (`salad_cloud_org_`, `bedrock-api-key-`), not one.
 */
export function holdsPhrase(value: string): boolean {
  for (const match of value.matchAll(PHRASE)) {
    const end = match.index + match[0].length;
    const before = value.slice(0, match.index + match[0].length - (match[1]?.length ?? 0));
    const isAfterRandomPart = (before.match(/[A-Za-z0-9]/g)?.length ?? 0) >= MIN_PHRASE_LEAD_CHARS;
    if (!isAfterRandomPart && end !== value.length) continue;
    if (!isAfterRandomPart && before.replace(/[^A-Za-z0-9]/g, '') === '') continue;
    const words = (match[1] ?? '').split(/[-_. ]/);
    let run = 0;
    for (const word of words) {
      run = isOneCaseWord(word) && readsAsEnglish(word) ? run + 1 : 0;
      if (run >= MIN_PHRASE_WORDS) return true;
    }
  }
  return false;
}

function isOneCaseWord(word: string): boolean {
  return /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+)$/.test(word);
}

/**
 * Whether a run of letters reads as English words: camel-case pieces of word length and common
 * triples. A run of hex letters alone (`fefcca`) is hex, whatever it spells.
 */
function readsAsEnglish(run: string): boolean {
  if (/^[a-fA-F]+$/.test(run)) return false;
  const pieces = run.match(CAMEL_WORD) ?? [];
  // Random mixed case splits into short pieces and shouted ones (`KiXyACIRIN` -> Ki, Xy, ACIRIN);
  // words are lower case or capitalised.
  const isMixedCase = /[a-z]/.test(run) && /[A-Z]/.test(run);
  for (const piece of pieces) {
    if (piece.length < MIN_PHRASE_PIECE_CHARS) return false;
    if (isMixedCase && /^[A-Z]{2}/.test(piece)) return false;
  }
  let trigrams = 0;
  let rare = 0;
  for (const piece of pieces) {
    const lower = piece.toLowerCase();
    let consonantRun = 0;
    for (const char of lower) {
      if ('aeiouy'.includes(char)) consonantRun = 0;
      else if (++consonantRun > MAX_WORD_CONSONANT_RUN) return false;
    }
    for (let index = -1; index + 1 < lower.length; index += 1) {
      trigrams += 1;
      if (!isCommonTrigram(lower, index)) rare += 1;
    }
  }
  return rare <= Math.floor(trigrams / PHRASE_TRIGRAMS_PER_ALLOWED_MISS);
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
