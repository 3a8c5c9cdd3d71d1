import { Buffer } from 'node:buffer';
import { isPlaceholderValue } from './is-placeholder-value.js';
import {
  holdsPhrase,
  isCaseScrambled,
  isMostlyWords,
  looksLikeWords,
  NAME_JUDGED_RUN_CHARS,
  SHORT_JUDGED_RUN_CHARS,
} from './looks-like-words.js';
import { isRepetitive } from './shannon-entropy.js';

// Shorter values are too often flags, enum members and defaults to redact on a key name alone.
export const MIN_GENERIC_SECRET_CHARS = 8;
// Longer values are documents or certificates (which have their own rules), not credentials.
export const MAX_GENERIC_SECRET_CHARS = 1024;
// A value of one character class must be long to be taken for a key: letters only, from 20 on;
// digits only never (ids, numbers and dates).
const ONE_CLASS_MIN_CHARS = 16;
// A value naming a secret as a word of its own (`Socks5Auth`, `my_token_v2`) is an identifier;
// requiring the word boundary keeps random keys (which hold `key` by chance) out.
const SECRET_WORD_AFTER_SEPARATOR = /(?:^|[^A-Za-z])(?:pass|pwd|secret|token|auth|key|credential)/i;
const SECRET_WORD_IN_CAMEL_CASE = /[a-z0-9](?:Pass|Pwd|Secret|Token|Auth|Key|Credential)/;
// camelCase and snake_case names average this many letters a piece (`Socks5Auth`: 4.5).
const MIN_NAME_PIECE_CHARS = 3;
// Type names that hold digits, read after `password:` in a signature: `key: Uint8Array`.
const TYPED_ARRAY = /^(?:Uint|Int|Float|BigInt|BigUint)\d{1,2}(?:Clamped)?Array$/;
// Symbols that names and expressions in a quoted value do not hold, but typed passwords do
// (`nob(ody[finds`, `aB3!xK9+q`). Names join words with `_ - . / : # @` and percent escapes.
const TYPED_SYMBOLS = /[{}[\]()$^*~;\\!&+=?,<>|\u0080-\uffff]|%(?![0-9A-Fa-f]{2})/;
// One sigil may open a name (`?NoLineTerminatorHere`, `!this.done`), and quotes may wrap it.
const NAME_WRAPPING = /^["'`]?[?!#@]?|["'`]$/g;
// A character class with a range (`[A-Za-z0-9._~+/-]+=*`): a pattern of tokens, not one.
const REGEX_CLASS = /\[[^\]]*(?:a-z|A-Z|0-9)[^\]]*\]/;
// Base64 shorter than this is not worth decoding to check.
const MIN_BASE64_CHARS = 12;
// Lower-case values typed on the home row (`lsdkfol23w54jlksdef`) are made-up examples.
const HOME_ROW = 'asdfghjkl';
const MIN_MASH_LETTERS = 6;
// Random lower-case letters land on the home row about 35% of the time.
const MIN_MASH_HOME_ROW_SHARE = 0.6;
// Typed mashes are short; a longer value, or one holding a long hex run (`dop_v1_<64 hex>`, where
// a, d and f are home-row keys), is generated, and no "made up" heuristic may judge it.
const MAX_MASH_CHARS = 24;
// Up to this length a home-row value is a mash without more; beyond, it must repeat itself too.
const MAX_UNREPEATED_MASH_CHARS = 10;
const MIN_LONG_MASH_HOME_ROW_SHARE = 0.75;
const HEX_RUN = /[0-9a-f]{12}/;
// A value ending in a dot, a host label and a common top-level domain names a host, not a key.
const HOST_NAME_END =
  /^[A-Za-z0-9.?@_-]*[A-Za-z0-9]\.(?:com|net|org|io|dev|app|co|cloud|ai|me|us|uk|de|fr|nl|jp|cn|ru|info|biz|edu|gov|local|internal|localhost)$/i;

/** Whether a value found after a secret-looking key name is plausibly a real secret. */
export function isPlausibleSecret(value: string, isQuoted: boolean): boolean {
  const length = value.length;
  if (length < MIN_GENERIC_SECRET_CHARS || length > MAX_GENERIC_SECRET_CHARS) return false;
  if (/\s/.test(value) || value.includes('://')) return false;
  if (!isQuoted && looksLikeCode(value)) return false;
  if (isPath(value) || REGEX_CLASS.test(value)) return false;
  if (isPlaceholderValue(value) || readsAsName(value) || namesASecret(value)) return false;
  // Words with digits and separators (`clm90949:AgencyIdentificationCodeContentType`), or a phrase
  // glued to a stand-in (`...-some-other-thing`): written by a person, like a name.
  if (isMostlyWords(value) || holdsPhrase(value)) return false;
  if (namesAHost(value)) return false;
  if (decodesToPhrase(value) || isKeyboardMash(value) || isRepetitive(value)) return false;
  if (countCharacterClasses(value) >= 2) return true;
  return length >= ONE_CLASS_MIN_CHARS && /^(?:[a-z]+|[A-Z]+)$/.test(value);
}

/**
 * Whether an unquoted value is an expression (`process.env.X`, `getToken()`, `cfg[key]`) or a
 * name (`EndOfFileToken`): a bare name counts as a value only with a digit in it or when long.
 */
function looksLikeCode(value: string): boolean {
  // A number literal (`0x5f3759df`), never a key.
  if (/^(?:0x[0-9a-f_]+|0b[01_]+|0o[0-7_]+)n?$/i.test(value)) return true;
  // Operators, but not `==`: base64 padding.
  if (/[()[\]{}<>]|\|\||&&|===|!==?|=>/.test(value) || TYPED_ARRAY.test(value)) return true;
  // A member path reads as words (`config.db.password`); a random run after a dot (`hvs.CAES...`) does not.
  if (/^[A-Za-z_$][\w$]*(?:\??\.#?[A-Za-z_$]|::|->)/.test(value)) return looksLikeWords(value);
  if (isNameWithVersionDigits(value)) return true;
  // A random run of letters (`rEUcsbMVApqeycsN`) is a key, not a name, whatever its length.
  return (
    /^[A-Za-z_$][A-Za-z_$]*$/.test(value) &&
    value.length < ONE_CLASS_MIN_CHARS &&
    looksLikeWords(value)
  );
}

// A JS object's member ends with `,`, `;` or the object's `}`.
const OBJECT_MEMBER_END = /^(.*?)[ \t]*(?:[,;]|\)?[ \t]*\})$/;
const NUMBER_LITERAL = /^(?:0x[\da-f_]+|0b[01_]+|0o[0-7_]+|\d[\d_.]*)n?$/i;

/**
 * Whether an unquoted value, read to its line's end, is a JS object's member
 * (`process.env.POSTGRES_PASSWORD,`, `getPass() }`, `0x0B96;`): code ending the way a member ends.
 * A YAML plain scalar ends with its line, so a password typed with dots (`eC.DC.GAA.Czx4`) is not one.
 */
export function isObjectMember(raw: string): boolean {
  const member = OBJECT_MEMBER_END.exec(raw)?.[1];
  return (
    member !== undefined && member !== '' && (NUMBER_LITERAL.test(member) || looksLikeCode(member))
  );
}

/** A name with a digit or two between words (`SignatureV4SignWithCredentials`): words once the digits go. */
function isNameWithVersionDigits(value: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(value) || (value.match(/\d/g) ?? []).length > 2) return false;
  const letters = value.replace(/\d/g, '');
  return letters.length >= ONE_CLASS_MIN_CHARS && looksLikeWords(letters, SHORT_JUDGED_RUN_CHARS);
}

/** Whether a value is a file path (`/var/run/secrets/token`), not base64 that starts with `/`. */
function isPath(value: string): boolean {
  return /^(?:\.{0,2}\/|~\/)[\w./@+-]*$/.test(value) && looksLikeWords(value);
}

/** Whether a value is a host name or mail address (`tenant-4f2a.okta.com`, `ops@corp.io`). */
function namesAHost(value: string): boolean {
  return HOST_NAME_END.test(value);
}

/** Words joined the way names join them (`auth-token`, `x.api_key`); `nob(ody[finds` is typed, not named. */
function readsAsName(value: string): boolean {
  const name = value.replace(NAME_WRAPPING, '');
  if (TYPED_SYMBOLS.test(name) || isCaseScrambled(name)) return false;
  return looksLikeWords(name, NAME_JUDGED_RUN_CHARS);
}

/** Whether a short value names a secret (`my_token_v2`); a long random one holds `key` or `Pwd` by chance. */
function namesASecret(value: string): boolean {
  if (value.length > MAX_MASH_CHARS) return false;
  const match = SECRET_WORD_AFTER_SEPARATOR.exec(value) ?? SECRET_WORD_IN_CAMEL_CASE.exec(value);
  if (match === null) return false;
  // The word ends where a word ends (`my_token_v2`, `Socks5Auth`), not inside random letters
  // (`pwdfayvk...`), and the value's letters are words, not a scramble (`6S00Ij22KEYEACjH`).
  const end = match.index + match[0].length;
  if (/[a-z]/.test(value[end] ?? '')) return false;
  const pieces = value.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? [];
  const letters = pieces.join('').length;
  return letters / pieces.length >= MIN_NAME_PIECE_CHARS;
}

/** Whether a value is base64 of readable prose or a placeholder (`bm90IG15IHJlYWwgcGFzc3dvcmQ=`). */
function decodesToPhrase(value: string): boolean {
  if (value.length < MIN_BASE64_CHARS || value.length % 4 !== 0) return false;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  if (!/^[\x20-\x7e]+$/.test(decoded)) return false;
  if (/ [a-z]+ /i.test(decoded) || isPlaceholderValue(decoded)) return true;
  const colon = decoded.indexOf(':');
  return colon !== -1 && isPlaceholderValue(decoded.slice(colon + 1));
}

/**
 * Whether a lower-case, non-hex value was typed by running fingers over the home row. Random values
 * land there a third of the time, so a longer one must also repeat a home-row triple (`sdf...sdf`).
 */
function isKeyboardMash(value: string): boolean {
  if (value.length > MAX_MASH_CHARS || /[A-Z]/.test(value) || HEX_RUN.test(value)) return false;
  // Hex split by separators (`dfd4d0f7:d09b16f8`): a, d and f are home-row keys.
  if (/^[0-9a-f:._-]+$/.test(value)) return false;
  const letters = value.replace(/[^a-z]/g, '');
  if (letters.length < MIN_MASH_LETTERS) return false;
  let homeRow = 0;
  for (const letter of letters) if (HOME_ROW.includes(letter)) homeRow += 1;
  if (homeRow / letters.length < MIN_MASH_HOME_ROW_SHARE) return false;
  if (value.length <= MAX_UNREPEATED_MASH_CHARS) return true;
  return (
    homeRow / letters.length >= MIN_LONG_MASH_HOME_ROW_SHARE && hasRepeatedHomeRowTriple(letters)
  );
}

function hasRepeatedHomeRowTriple(letters: string): boolean {
  for (let index = 0; index + 3 <= letters.length; index += 1) {
    const triple = letters.slice(index, index + 3);
    if (
      [...triple].every((letter) => HOME_ROW.includes(letter)) &&
      letters.includes(triple, index + 1)
    )
      return true;
  }
  return false;
}

function countCharacterClasses(value: string): number {
  let classes = 0;
  if (/[a-z]/.test(value)) classes += 1;
  if (/[A-Z]/.test(value)) classes += 1;
  if (/\d/.test(value)) classes += 1;
  if (/[^A-Za-z0-9]/.test(value)) classes += 1;
  return classes;
}
