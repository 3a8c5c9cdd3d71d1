import { isPublishedExampleKey } from './is-published-example-key.js';
import { looksLikeWords, NAME_JUDGED_RUN_CHARS } from './looks-like-words.js';
import { edgeKeyboardRun, longestCountingRun, madeUpRunShare } from './made-up-run-share.js';

// Whole values (lowercase, digits and punctuation removed) that are stand-ins, not secrets.
const OBVIOUS_WORDS = new Set([
  'admin',
  'apikey',
  'bar',
  'baz',
  'changeit',
  'changeme',
  'default',
  'dummy',
  'empty',
  'example',
  'false',
  'foo',
  'foobar',
  'guest',
  'hunter',
  'key',
  'letmein',
  'mypassword',
  'mysecret',
  'mytoken',
  'nil',
  'none',
  'null',
  'pass',
  'passwd',
  'password',
  'placeholder',
  'pwd',
  'qwerty',
  'redacted',
  'root',
  'sample',
  'secret',
  'secretkey',
  'string',
  'test',
  'testing',
  'todo',
  'token',
  'true',
  'undefined',
  'user',
  'username',
  'value',
]);

// Words and marks of stand-ins (`my-example-key`, `sk-...`). A long random value holds a word now
// and then (`insert` in about one random 32-character value in 3 million), so there the word
// counts only when what is left around it is short or reads as words too.
const PLACEHOLDER_FRAGMENT =
  /example|changeme|change_me|change-me|placeholder|redacted|replace|insert|dummy|sample|your[-_]?(?:own|real|api|secret|key|token|pass)|fake[-_]|x{5}|#{5}|\*\*\*|\.\.\.|\u2026|\u2022/gi;
const MAX_STAND_IN_REST_CHARS = 20;
const MIN_SHOUTED_LETTERS = 6;
// Typed runs that a long random value holds now and then (`12345` in about one 40-digit hex value in
// 20,000), so in a long value they mark a stand-in only when runs make up much of it.
const TYPED_RUN = /12345|a1b2c3|1a2b3c|abcdef|qwerty/i;
const LONG_VALUE_CHARS = 16;
// Random hex of 32 to 40 characters reaches 0.47 (100,000 draws); a typed run adds up to 0.15.
const MIN_LONG_STAND_IN_RUN_SHARE = 0.65;
// A counting run this long is typed (`abcdefgh`, `aBcDeFgH`, `ABCDEFGH` in place of a vendor's
// signature): random hex holds `01234567` about once in four million values, other alphabets never.
const MIN_ALPHABET_RUN_CHARS = 8;
// Keys along a letter row opening or closing a value (`zxcvb...`): where people start typing.
// A random value of both cases (62 keys or more) opens or closes with five of them, in one case, about
// once in 15 million; one of a single case (26 to 36 keys) about once in 400,000 with five and once in
// 14 million with six, so there it takes six.
const MIN_EDGE_KEYBOARD_RUN_CHARS = 5;
const MIN_ONE_CASE_EDGE_KEYBOARD_RUN_CHARS = 6;

// Without a marker, a value this long must be mostly runs (`abc123xyz-456def789ghij-klmnop...`);
// random hex of this length reaches about 0.4, other random alphabets far less.
const RUNS_ONLY_MIN_CHARS = 32;
const RUNS_ONLY_MIN_SHARE = 0.6;

// Template and variable syntax, well formed: the value is filled in elsewhere. A stray `${` or `{{`
// among other symbols (`m{{h}o)p${e]nob(`) is a typed password, not a template.
const TEMPLATE_SYNTAX =
  /\$\{[^{}\s[\]()<>]*\}|\$\([^()]*\)|\{\{[^{}]*\}\}|#\{[^{}]*\}|%\(\w+\)[sd]|^(?:\$\{?(?:[A-Za-z_][\w.:]*|\d)\}?[:/@]?)+$|^%[A-Za-z_]+%$|^<.*>$|^\{[A-Za-z_][\w.]*\}$/;
// The whole value one interpolated expression of names, calls and lookups, as JavaScript and
// Python f-strings write it: `${localStorage.getItem('token')}`, `{os.environ.get("KEY")}`. A quoted
// argument is a name (letters, `.`, `_`, `-`), so a literal secret wrapped in a call is still judged.
const INTERPOLATED_EXPRESSION =
  /^\$?\{[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\((?:[^()"'`]|"[A-Za-z_.-]{0,40}"|'[A-Za-z_.-]{0,40}')*\)|\[(?:[^[\]"'`]|"[A-Za-z_.-]{0,40}"|'[A-Za-z_.-]{0,40}')*\])*\}$/;
// A positional format placeholder (`{0}`, `{}`). A typed password holds one now and then among other
// braces (`GLW{{18})${D8ql]#`), so it marks a template only when no brace or `$` is left without it.
const FORMAT_PLACEHOLDER = /\{\d*\}/;
const FORMAT_PLACEHOLDERS = /\{\d*\}/g;
const PRINTF_VERB = /%[sdv]/;
// Letters and digits a printf template holds besides its verbs (`key-%v`, `Bearer %s`).
const MAX_TEMPLATE_REST_CHARS = 6;
const PRINTF_VERBS = /%[sdv]/g;
// Digits and signs standing for letters (`p4ssw0rd`, `s3cr3t`), undone before the word check.
const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** Whether a value holds template syntax or a placeholder marker (`${X}`, `changeme`, `xxxxx`). */
export function hasTemplateOrMarker(value: string): boolean {
  return (
    TEMPLATE_SYNTAX.test(value) ||
    INTERPOLATED_EXPRESSION.test(value) ||
    isFormatTemplate(value) ||
    isPrintfTemplate(value) ||
    hasMarkerWord(value) ||
    hasTypedRuns(value)
  );
}

/** Whether a value's positional placeholders (`{0}`, `{}`) are its only braces. */
function isFormatTemplate(value: string): boolean {
  return FORMAT_PLACEHOLDER.test(value) && !/[{}$]/.test(value.replace(FORMAT_PLACEHOLDERS, ''));
}

/**
 * Whether a value is a printf template (`%s:%s`, `key-%v`): its verbs around little else. A random
 * password holds `%d` now and then, with plenty around it.
 */
function isPrintfTemplate(value: string): boolean {
  if (!PRINTF_VERB.test(value)) return false;
  const rest = value.replace(PRINTF_VERBS, ' ');
  return rest.replace(/[^A-Za-z0-9]/g, '').length < MAX_TEMPLATE_REST_CHARS || looksLikeWords(rest);
}

/** Whether a value is a placeholder, template or stand-in rather than a real secret. */
export function isPlaceholderValue(value: string): boolean {
  if (hasTemplateOrMarker(value) || isPublishedExampleKey(value)) return true;
  if (value.length >= RUNS_ONLY_MIN_CHARS && madeUpRunShare(value) >= RUNS_ONLY_MIN_SHARE)
    return true;
  if (longestCountingRun(value) >= MIN_ALPHABET_RUN_CHARS) return true;
  const hasBothCases = /[a-z]/.test(value) && /[A-Z]/.test(value);
  const minEdgeRun = hasBothCases
    ? MIN_EDGE_KEYBOARD_RUN_CHARS
    : MIN_ONE_CASE_EDGE_KEYBOARD_RUN_CHARS;
  if (edgeKeyboardRun(value) >= minEdgeRun) return true;

  const lower = value.toLowerCase();
  if (OBVIOUS_WORDS.has(lower.replace(/[^a-z]/g, ''))) return true;
  const unleet = lower.replace(/[013457@$]/g, (char) => LEET[char] ?? char).replace(/[^a-z]/g, '');
  if (OBVIOUS_WORDS.has(unleet)) return true;
  return isOneRepeatedCharacter(value.replace(/[-_.:\s]/g, ''));
}

/** Whether a value holds a stand-in word or mark, and is not mostly random around it. */
function hasMarkerWord(value: string): boolean {
  if (saysFake(value)) return true;
  let isDelimited = false;
  let hasOneCaseWord = false;
  const rest = value.replace(PLACEHOLDER_FRAGMENT, (word: string, at: number) => {
    const end = at + word.length;
    // At either end, between separators (`my-example-key`), or shouted among lower case
    // (`...bPxRfiCYEXAMPLEKEY`): places a random value puts a word about never.
    // Shouting marks a word only from six letters: random mixed case spells `FAKE_` or `DUMMY`
    // about once in 100,000 values, `EXAMPLE` about never.
    const isShouted =
      word === word.toUpperCase() &&
      word.replace(/[^A-Z]/g, '').length >= MIN_SHOUTED_LETTERS &&
      /[a-z]/.test(value);
    // People write a word in one case (`dummy`, `DUMMY`, `Dummy`); random letters spell it in
    // mixed case (`...dumMY`) as often as not, so only one case marks an end or a delimited word.
    const isOneCase =
      word === word.toLowerCase() ||
      word === word.toUpperCase() ||
      word === word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
    if (isOneCase) hasOneCaseWord = true;
    if (isOneCase && (at === 0 || end === value.length || isShouted)) isDelimited = true;
    if (isOneCase && isSeparator(value, at - 1) && isSeparator(value, end)) isDelimited = true;
    return ' ';
  });
  if (rest === value) return false;
  if (isDelimited) return true;
  // Around a short rest a word written in one case marks a stand-in (`my_fake_pw1`); one in mixed
  // case is random letters (`nTFAkE_qfuiRv@x`).
  if (rest.replace(/[^A-Za-z0-9]/g, '').length < MAX_STAND_IN_REST_CHARS) return hasOneCaseWord;
  // Random separators (`-`, `_` in URL-safe values) cut a long random rest into short runs, so its
  // shorter runs are judged too, as in a value read as a name.
  const judged = rest.length >= LONG_VALUE_CHARS ? NAME_JUDGED_RUN_CHARS : undefined;
  return looksLikeWords(rest, judged) || madeUpRunShare(rest) >= MIN_LONG_STAND_IN_RUN_SHARE;
}

const LOWER_CASE_FAKE = /fake/g;
// A value that says what it is (`…$thisisfakeZDq…`, `…notarealkey…`): random letters never do.
const SAYS_IT_IS_FAKE = /isa?fake|nota?real/;

/**
 * Whether a value says in lower case that it is fake: `fake` twice (`bddcfb88fake8f7c4d9aefake7de1fc`)
 * or in so many words (`thisisfake`). Random letters spell `fake` about once in a million values;
 * a shouted `FAKE` in mixed case is how scanners' own tests mark a real-shaped key they still expect
 * found, and stays a secret.
 */
function saysFake(value: string): boolean {
  return SAYS_IT_IS_FAKE.test(value) || (value.match(LOWER_CASE_FAKE)?.length ?? 0) >= 2;
}

function isSeparator(value: string, index: number): boolean {
  return !/[A-Za-z0-9]/.test(value[index] ?? '');
}

/**
 * Whether a value holds a typed run (`12345`, `abcdef`) and, when long, is mostly such runs or holds
 * a whole alphabet's worth of one (`...abcdefghijklmnop`, a run no random value has).
 */
function hasTypedRuns(value: string): boolean {
  if (!TYPED_RUN.test(value)) return false;
  if (value.length < LONG_VALUE_CHARS) return true;
  return (
    madeUpRunShare(value) >= MIN_LONG_STAND_IN_RUN_SHARE ||
    longestCountingRun(value) >= MIN_ALPHABET_RUN_CHARS
  );
}

function isOneRepeatedCharacter(value: string): boolean {
  for (let index = 1; index < value.length; index += 1) {
    if (value.charCodeAt(index) !== value.charCodeAt(0)) return false;
  }
  return true;
}
