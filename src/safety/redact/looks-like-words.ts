// Letters-only runs at least this long are judged by their shape rather than assumed to be words.
const LONG_RUN_CHARS = 12;
// camelCase words average four letters or more (`EndOfFileToken`); random mixed case splits into
// pieces of about two (`FiOSRFRoxaWBWyLQ` -> Fi, OSRF, Roxa, WB, ...).
const MIN_AVERAGE_WORD_CHARS = 3.5;
// English text keeps 30-40% vowels (with y); random letters about 23%.
const MIN_WORD_VOWEL_SHARE = 0.2;
// English rarely strings more consonants together (`lengths`); random letters often do.
const MAX_WORD_CONSONANT_RUN = 5;
// camelCase split: an acronym before a capitalised word (`HTTPServer`), or one capitalised word.
const CAMEL_WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g;

/**
 * Whether a value reads as words or an identifier (`auth-token`, `X-Api-Key`, `defaultSecret2`)
 * rather than as random characters.
 */
export function looksLikeWords(value: string): boolean {
  for (const segment of value.split(/[^A-Za-z0-9]+/)) {
    if (segment === '') continue;
    const match = /^([A-Za-z]*)(\d{0,4})$/.exec(segment);
    if (match === null) return false;
    if (!isWordRun(match[1] ?? '')) return false;
  }
  return true;
}

function isWordRun(letters: string): boolean {
  if (letters.length < LONG_RUN_CHARS) return true;
  const words = letters.match(CAMEL_WORD) ?? [];
  if (letters.length / words.length < MIN_AVERAGE_WORD_CHARS) return false;
  let vowels = 0;
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
  }
  return vowels / letters.length >= MIN_WORD_VOWEL_SHARE;
}
