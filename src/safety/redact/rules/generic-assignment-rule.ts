import { isPlaceholderValue } from '../is-placeholder-value.js';
import { readSecretName } from '../is-secret-name.js';
import {
  isObjectMember,
  isPlausibleSecret,
  MAX_GENERIC_SECRET_CHARS,
} from '../is-plausible-secret.js';
import { isStatedSecret } from '../is-stated-secret.js';
import { isCaseScrambled, looksLikeWords } from '../looks-like-words.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';

// Shorter names right after `/` or `+` are read as base64 text.
const MIN_KEY_AFTER_BASE64_MARK_CHARS = 4;
// Longest key name read around a keyword (`spring.datasource.hikari.password` fits).
const MAX_KEY_CHARS = 64;
// A bare `key` (`[DEBUG] Using Key=...`) names a lookup as often as a secret: only long values count.
const MIN_BARE_KEY_VALUE_CHARS = 20;
// Between key and value: a closing quote or bracket, then an assignment, comparison or mapping.
const KEY_TO_VALUE = /\\?["'`]?\]?[ \t]*(?:=>|:{1,3}=|===?|!==?|\?\?=|\|\|=|[?.+]=|[:=])[ \t]*/y;
// Go and Rust declarations: `var apiToken string = "..."`, `let token: &str = "..."`.
const TYPED_DECLARATION =
  /[ \t]*(?::[ \t]*)?(?:string|String|str|&str|&'static str|\[\]byte|const char\s*\*)[ \t]*=[ \t]*/y;
// A call passing the name and then the value: `System.setProperty("API_TOKEN", "...")`.
const NAME_THEN_ARGUMENT = /["'][ \t]*,[ \t]*(?=["'])/y;
// `token - 'value'` (a log or table line), only before a quote: `a - b` is arithmetic.
const DASH_THEN_QUOTE = /[ \t]+-[ \t]+(?=["'`])/y;
// `<add key="ClearTextPassword" value="..." />` (NuGet and .NET app settings).
const VALUE_ATTRIBUTE = /["'][ \t]+value[ \t]*=[ \t]*(?=["'])/y;
// A quoted literal compared with the name, literal first: `if ("..." === password)`.
const LITERAL_BEFORE_COMPARISON = /(["'`])([^"'`\n]{8,1024})\1[ \t]*(?:===?|!==?)[ \t]*$/;
const COMPARISON_LOOKBACK_CHARS = 1100;
// An XML element's text, on the same line or the next: `<apiToken>\n  value\n</apiToken>`.
const ELEMENT_TEXT = />[ \t]*(?:\r?\n[ \t]*)?/y;
// `<string name="db_password">value</string>` (Android resources, .NET settings): the key is the
// value of a name attribute, the secret the element's text.
const NAME_ATTRIBUTE = /<[\w:.-]+[^<>\n]*?\b(?:name|key|id)[ \t]*=[ \t]*["']$/;
const NAME_ATTRIBUTE_LOOKBACK_CHARS = 200;
const NAMED_ELEMENT_TEXT = /["'](?:[ \t]+[\w:.-]+[ \t]*=[ \t]*["'][^"'<>\n]*["'])*[ \t]*>[ \t]*/y;
// A YAML block scalar: `password: |` and the value on the next, indented line.
const BLOCK_SCALAR = /["']?[ \t]*:[ \t]*[|>][-+]?\d?[ \t]*\r?\n[ \t]+/y;
// A name/value pair naming its variable (`- name: DB_PASSWORD` / `{"name": "DB_PASSWORD", …`): the
// name field, then its `value` field on the same line or the next (Kubernetes, ECS, CloudFormation).
const NAME_FIELD = /(?:^[ \t]*(?:- )?|[{,][ \t]*)["']?name["']?[ \t]*:[ \t]*["']?$/i;
const VALUE_FIELD =
  /["']?[ \t]*(?:,[ \t]*|(?:#[^\n]{0,256})?\r?\n[ \t]*(?:- )?)["']?value["']?[ \t]*:[ \t]*/iy;
// A Dockerfile's `ENV NAME value` (the older form, without `=`).
const DOCKERFILE_ENV = /^[ \t]*ENV[ \t]+$/;
const BLANKS_THEN_VALUE = /[ \t]+(?=[^\s=])/y;
// `Authorization: Bearer <token>`: the scheme word is not the secret.
const AUTH_SCHEME = /(?:bearer|basic|token|bot|api-?token|api-?key|sso-key)[ \t]+/iy;
// A name for a password proper, where a quoted word-and-number value (`thisIsDog11`) is one.
const PASSWORD_NAME = /(?:password|passwd|pass|pwd)\d{0,2}$/i;
// An upper-case variable whose name ends in a word for a password (`APP_DB_PASS`, `SMTP_PASSWORD`,
// `LDAP_BIND_PW`, `BORG_PASSPHRASE`), whatever its prefix: the name says the value is one, so only
// stand-ins, templates, switch words and code are refused, not values that read as names.
// `PWD` and `OLDPWD` alone are the shell's working directories, so `PWD` and `PW` need a prefix.
const PASSWORD_VARIABLE_NAME =
  /^(?:(?:[A-Z][A-Z0-9]*_)*(?:PASSWORD|PASSWD|PASS|PASSPHRASE)|(?:[A-Z][A-Z0-9]*_)+(?:PWD|PW))$/;
// Words a switch is set to (`ALLOW_EMPTY_PASSWORD=true`), not a password.
const SWITCH_VALUE = /^(?:true|false|yes|no|on|off|null|none|nil|empty|disabled?|enabled?)$/i;
// A code constant naming a configuration key (`DB_PASSWORD = "spring.datasource.password"`): words.
const PROPERTY_KEY = /^[a-z]{2,}(?:[._-][a-z]{2,})+$/;
// Words and a number at the end: how people make up passwords (`Welcome2024!`, `rivermaple98`,
// `Summer#2025`).
const WORDS_THEN_NUMBER = /^[A-Za-z]{4,40}[!#$%&*@^.?_-]?\d{2,4}[!#$%&*@^.?]?$/;
// Values are read with sticky patterns bounded one past the longest plausible value, so a hostile
// line costs a bounded amount of work per keyword.
const VALUE_SCAN_CHARS = MAX_GENERIC_SECRET_CHARS + 1;
const UNQUOTED_VALUE = new RegExp(String.raw`[^\s"'\`,;&)\]}<>]{0,${VALUE_SCAN_CHARS}}`, 'y');
// A `.env` value: literal up to a blank or a quote.
const ENV_VALUE = new RegExp(String.raw`[^\s"'\`]{0,${VALUE_SCAN_CHARS}}`, 'y');
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
// A YAML plain scalar: up to a blank or a quote, read as unquoted (code checks apply).
const YAML_VALUE = new RegExp(String.raw`[^\s"'\`]{0,${VALUE_SCAN_CHARS}}`, 'y');
const QUOTES = ['"', "'", '`'];
// Self-identifying formats whose own rule knows their published examples, signature or fixed shape:
// a JWT, an OpenAI key of a named kind (signed with `T3BlbkFJ`), a JFrog reference token (base64
// of `reftkn:`, 64 characters). Such a value is that rule's to judge.
const VENDOR_JUDGED_SHAPE =
  /^(?:eyJ[\w-]*\.eyJ[\w-]*\.[\w-]*|sk-(?:proj|svcacct|admin)-[\w-]+|cmVmdGtu[A-Za-z0-9+/=]*)$/;
// A recovery phrase: 12 to 24 words of the BIP-39 list's shape (3 to 8 lower-case letters).
const MNEMONIC_PHRASE = /(?:[a-z]{3,8} ){11,23}[a-z]{3,8}(?![a-z])/y;
const MNEMONIC_WORD_COUNTS = new Set([12, 15, 18, 21, 24]);
const MIN_DISTINCT_MNEMONIC_SHARE = 0.75;
// A key name this long found inside its value (`buildkite_secret := "...-buildkite_secret-..."`)
// marks a stand-in written from the name; a random value never spells one.
const MIN_NAME_IN_VALUE_CHARS = 6;
// Up to the closing quote on the same line, stepping over backslash escapes.
const QUOTED_VALUE = new Map(
  QUOTES.map((quote) => [
    quote,
    new RegExp(String.raw`(?:[^${quote}\\\n]|\\[^\n]){0,${VALUE_SCAN_CHARS}}(?=${quote})`, 'y'),
  ]),
);
// Typographic quotes, as word processors and chat paste them: up to the closing one.
const CURLY_QUOTED_VALUE = new Map(
  [
    ['\u201c', '\u201d'],
    ['\u2018', '\u2019'],
    ['\u00ab', '\u00bb'],
  ].map(([open, close]) => [
    open ?? '',
    new RegExp(String.raw`[^${close}\n]{0,${VALUE_SCAN_CHARS}}(?=${close})`, 'y'),
  ]),
);
// JSON inside a string (`{\"password\":\"...\"}`): up to the escaped closing quote.
const ESCAPED_QUOTED_VALUE = new Map(
  QUOTES.map((quote) => [
    quote,
    new RegExp(
      String.raw`(?:[^\\\n]|\\(?!${quote})[^\n]){0,${VALUE_SCAN_CHARS}}(?=\\${quote})`,
      'y',
    ),
  ]),
);
// How far back on its line a query-string key looks for the image URL it may belong to.
const IMAGE_URL_LOOKBACK_CHARS = 200;
// Badge and image URLs carry public display tokens (`badge.svg?token=...`), not credentials.
const IMAGE_QUERY = /\.(?:svg|png|gif|jpe?g|webp)\?[^\s"'()]*$/i;

/** Generic `password = "..."`, `apiKey: ...`, `DB_TOKEN=...` assignments, in code, config and env files. */
export const GENERIC_ASSIGNMENT_RULE: AnchoredRule = {
  id: 'generic-secret',
  description:
    'A value assigned to a secret-looking name (password, secret, token, api_key, ...), when it is not a placeholder and looks random',
  keywords: [
    'pass',
    'pwd',
    'secret',
    'token',
    'auth',
    'credential',
    'creds',
    'apikey',
    'api_key',
    'api-key',
    'accesskey',
    'access_key',
    'access-key',
    'privatekey',
    'private_key',
    'private-key',
    'signing_key',
    'signing-key',
    'signingkey',
    'encryption_key',
    'encryption-key',
    'encryptionkey',
    'master_key',
    'masterkey',
    '_key',
    'accountkey',
    'key',
    'pw',
    'mnemonic',
    'seed',
    'private',
  ],
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    if (isKeyInsideWord(text, at)) return undefined;
    const keyStart = scanKeyStart(text, at);
    const keyEnd = scanKeyEnd(text, at);
    // After `:` the name is a qualified type or URN (`AWS::AppSync::ApiKey`); after `//` it is the
    // user of a URL (`https://x-access-token:...@host`), which the URL and token rules read.
    // PowerShell's environment drive (`$env:DB_PASSWORD = "…"`) is an assignment, not a type.
    if (
      (text[keyStart - 1] === ':' && !isEnvironmentDrive(text, keyStart)) ||
      text.startsWith('//', keyStart - 2)
    )
      return undefined;
    const key = text.slice(keyStart, keyEnd);
    // A short name glued after `/` or `+` is base64 (`ID8/Pw== c2Vj...`), not a key.
    if (key.length < MIN_KEY_AFTER_BASE64_MARK_CHARS && /[+/]/.test(text[keyStart - 1] ?? '')) {
      return undefined;
    }
    const kind = readSecretName(key);
    if (kind === undefined) return undefined;
    if (isImageQueryKey(text, keyStart)) return undefined;
    const valueStart = findValueStart(text, keyStart, keyEnd);
    const range =
      valueStart === undefined
        ? readComparedLiteral(text, keyStart)
        : readValue(text, valueStart, {
            key,
            isPassword: PASSWORD_NAME.test(key),
            isPasswordVariable: PASSWORD_VARIABLE_NAME.test(key),
            isCodeConstant: isCodeConstant(text, keyStart, keyEnd),
            opensLine: opensLine(text, keyStart),
            isMnemonic: kind === 'mnemonic',
            isEnvLine: isEnvLine(text, keyStart, keyEnd, key),
            isEnvWord: isEnvWord(text, keyStart, keyEnd, key),
            isYamlLine:
              isYamlLine(text, keyStart, keyEnd) ||
              (isNamedEntry(text, keyStart) && text.slice(keyEnd, valueStart).includes('\n')),
          });
    if (
      range !== undefined &&
      kind === 'bare-key' &&
      range.end - range.start < MIN_BARE_KEY_VALUE_CHARS
    ) {
      return undefined;
    }
    return range;
  },
};

/**
 * Whether a hit of the bare keyword `key` starts a longer word (`keys`, `keyof`, `keyboard`): `key`
 * is common in code, so these hits leave before any scanning. A word glued before it (`sshkey`,
 * `monkey`) is the name reader's to judge.
 */
function isKeyInsideWord(text: string, at: number): boolean {
  const first = text.charCodeAt(at);
  if (first !== 107 && first !== 75) return false; // k, K
  if ((text.charCodeAt(at + 1) | 32) !== 101 || (text.charCodeAt(at + 2) | 32) !== 121)
    return false;
  const after = text.charCodeAt(at + 3);
  return (after >= 65 && after <= 90) || (after >= 97 && after <= 122) || after === 95;
}

function isEnvironmentDrive(text: string, keyStart: number): boolean {
  return keyStart >= 5 && text.slice(keyStart - 5, keyStart).toLowerCase() === '$env:';
}

/**
 * Whether the key is the value of a `name` field whose pair holds a `value` field (a Kubernetes or
 * ECS `env` entry: `- name: DB_PASSWORD` then `value: …`), so the value is read from that field.
 */
function isNamedEntry(text: string, keyStart: number): boolean {
  return NAME_FIELD.test(lineBefore(text, keyStart).text);
}

/** Whether the key is the value of a `name`, `key` or `id` attribute (`<string name="...">`). */
function isNameAttribute(text: string, keyStart: number): boolean {
  const quote = text[keyStart - 1];
  if (quote !== '"' && quote !== "'") return false;
  return NAME_ATTRIBUTE.test(
    text.slice(Math.max(0, keyStart - NAME_ATTRIBUTE_LOOKBACK_CHARS), keyStart),
  );
}

function isDockerfileEnv(text: string, keyStart: number): boolean {
  const before = lineBefore(text, keyStart);
  return before.isWholeLine && DOCKERFILE_ENV.test(before.text);
}

/** Where the value of the key ending at `keyEnd` starts, in any of the assignment forms read. */
function findValueStart(text: string, keyStart: number, keyEnd: number): number | undefined {
  if (text[keyStart - 1] === '<') {
    ELEMENT_TEXT.lastIndex = keyEnd;
    return ELEMENT_TEXT.exec(text) === null ? undefined : ELEMENT_TEXT.lastIndex;
  }
  // `<string name="db_password">value</string>`; else `<add key="Password" value="..." />` below.
  if (isNameAttribute(text, keyStart)) {
    NAMED_ELEMENT_TEXT.lastIndex = keyEnd;
    if (NAMED_ELEMENT_TEXT.exec(text) !== null) return NAMED_ELEMENT_TEXT.lastIndex;
  }
  if (isNamedEntry(text, keyStart)) {
    VALUE_FIELD.lastIndex = keyEnd;
    return VALUE_FIELD.exec(text) === null ? undefined : VALUE_FIELD.lastIndex;
  }
  if (text.startsWith('ENV', keyStart - 4) && isDockerfileEnv(text, keyStart)) {
    BLANKS_THEN_VALUE.lastIndex = keyEnd;
    if (BLANKS_THEN_VALUE.exec(text) !== null) return BLANKS_THEN_VALUE.lastIndex;
  }
  for (const form of [
    BLOCK_SCALAR,
    TYPED_DECLARATION,
    KEY_TO_VALUE,
    NAME_THEN_ARGUMENT,
    DASH_THEN_QUOTE,
    VALUE_ATTRIBUTE,
  ]) {
    form.lastIndex = keyEnd;
    if (form.exec(text) !== null) return form.lastIndex;
  }
  return undefined;
}

function isKeyCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 || // _
    code === 45 || // -
    code === 46 // .
  );
}

function scanKeyStart(text: string, at: number): number {
  let start = at;
  while (start > 0 && at - start < MAX_KEY_CHARS && isKeyCharacter(text.charCodeAt(start - 1))) {
    start -= 1;
  }
  return start;
}

function scanKeyEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && end - at < MAX_KEY_CHARS && isKeyCharacter(text.charCodeAt(end))) {
    end += 1;
  }
  return end;
}

/** The literal in `"..." === key` just before the key, if it looks like a secret. */
function readComparedLiteral(text: string, keyStart: number): ValueRange | undefined {
  // Most keys have no comparison before them: look at the operator before reading the line back.
  let before = keyStart;
  while (before > 0 && (text[before - 1] === ' ' || text[before - 1] === '\t')) before -= 1;
  if (text[before - 1] !== '=') return undefined;
  const from = Math.max(0, keyStart - COMPARISON_LOOKBACK_CHARS);
  const match = LITERAL_BEFORE_COMPARISON.exec(text.slice(from, keyStart));
  const value = match?.[2];
  if (match === null || value === undefined || !isPlausibleSecret(value, true)) return undefined;
  const start = from + match.index + 1;
  return { start, end: start + value.length };
}

/** Whether the key is a query parameter of an image URL (a README badge). */
function isImageQueryKey(text: string, keyStart: number): boolean {
  const before = text[keyStart - 1];
  if (before !== '?' && before !== '&') return false;
  const lookback = text.slice(Math.max(0, keyStart - IMAGE_URL_LOOKBACK_CHARS), keyStart);
  return IMAGE_QUERY.test(lookback.slice(lookback.lastIndexOf('\n') + 1));
}

/**
 * Whether the key opens a `.env` or shell line (`DB_PASSWORD=...`, `export X=...`), or a command
 * in a string (`"sh", "-c", "PGPASSWORD=... pg_dump"`): there an unquoted value is literal text up
 * to the first blank, `&`, `;` and `,` included.
 */
function isEnvLine(text: string, keyStart: number, keyEnd: number, key: string): boolean {
  if (text[keyEnd] !== '=' || !ENV_NAME.test(key)) return false;
  const before = lineBefore(text, keyStart);
  return (
    (before.isWholeLine && /^[ \t]*(?:export[ \t]+)?$/.test(before.text)) ||
    /["'`][ \t]*(?:export[ \t]+)?$/.test(before.text)
  );
}

/**
 * Whether the key is a `NAME=value` word inside a line, after a blank, `=` or a quote: a command
 * sets a variable that way (`ENV`, `ARG`, `set`, `docker run -e`, `--from-literal=`,
 * `Environment=`, a compose list's `- NAME=`), and the value is literal text up to a blank.
 */
function isEnvWord(text: string, keyStart: number, keyEnd: number, key: string): boolean {
  if (text[keyEnd] !== '=' || !ENV_NAME.test(key)) return false;
  const before = text[keyStart - 1];
  return before === ' ' || before === '\t' || before === '=' || before === '"' || before === "'";
}

// What precedes a key on its line is read this far back: the forms judged by it (an indent, a
// quote, `export`, `ENV`) are short, and reading back over a long minified line for each key on
// it would cost the square of the line's length.
const LINE_PREFIX_CHARS = 256;

/** The text before `at` on its line, up to LINE_PREFIX_CHARS, and whether that is all of it. */
function lineBefore(text: string, at: number): { text: string; isWholeLine: boolean } {
  const from = Math.max(0, at - LINE_PREFIX_CHARS);
  const slice = text.slice(from, at);
  const newline = slice.lastIndexOf('\n');
  return { text: slice.slice(newline + 1), isWholeLine: newline !== -1 || from === 0 };
}

// ` = ` or a type annotation then ` = ` (`DB_PASSWORD: str = "…"`), as code assigns a constant.
const CONSTANT_ASSIGNMENT = /^(?:[ \t]*:[^=\n]{0,64})?[ \t]+=[ \t]/;

function opensLine(text: string, keyStart: number): boolean {
  const before = lineBefore(text, keyStart);
  return before.isWholeLine && /^[ \t]*$/.test(before.text);
}

/** Whether the key is an unquoted name assigned with ` = ` (code), not a `.env`, YAML or JSON entry. */
function isCodeConstant(text: string, keyStart: number, keyEnd: number): boolean {
  const before = text[keyStart - 1] ?? '';
  return (
    before !== '"' && before !== "'" && CONSTANT_ASSIGNMENT.test(text.slice(keyEnd, keyEnd + 80))
  );
}

/**
 * Whether an unquoted value is a plain scalar alone on its line (a compose or YAML file), not a JS
 * object's member (`process.env.X,`, `getPass() }`, `0x0B96;`) or the first word of a description
 * (`DB_PASSWORD: required, see below`).
 */
function isPlainScalar(text: string, raw: string, end: number): boolean {
  if (isObjectMember(raw)) return false;
  const rest = /^[^\n]*/.exec(text.slice(end, end + MAX_KEY_CHARS))?.[0] ?? '';
  return /^[,;]?[ \t]*(?:#.*)?\r?$/.test(rest);
}

/**
 * A BIP-39 recovery phrase at `start`: 12 to 24 lower-case words separated by single blanks, as
 * wallets print them. The published test phrases repeat one word (`abandon ... about`, `test ...
 * junk`); a real one holds mostly distinct words.
 */
function readMnemonic(text: string, start: number): ValueRange | undefined {
  MNEMONIC_PHRASE.lastIndex = start;
  const match = MNEMONIC_PHRASE.exec(text);
  if (match === null) return undefined;
  const words = match[0].split(' ');
  if (!MNEMONIC_WORD_COUNTS.has(words.length)) return undefined;
  if (new Set(words).size < words.length * MIN_DISTINCT_MNEMONIC_SHARE) return undefined;
  return { start, end: start + match[0].length };
}

// A call, index, block or condition: `DB_PASSWORD=$(cat f)`, `X=a||b` in a minified script.
const CODE_OPERATORS = /[()[\]{}<>]|\|\||&&/;
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * Whether a command word's value is code (`e.password`, `process.env.X`, `getPass()`), not typed
 * text: a bare word is a value there, and a path of pieces counts as code only when its pieces are
 * words, not case-switching runs (`hKYo.UQnF.lxj`).
 */
function isCodeExpression(value: string): boolean {
  if (CODE_OPERATORS.test(value)) return true;
  // A minified statement runs on after `,` or `;` (`DB_PASSWORD=e.password,x=1`).
  const head = /^[^,;]*/.exec(value)?.[0] ?? value;
  return MEMBER_PATH.test(head) && !isCaseScrambled(head) && looksLikeWords(head);
}

/** Whether a value spells the key it is assigned to (`buildkite_secret` inside its own value). */
function holdsKeyName(value: string, key: string): boolean {
  return key.length >= MIN_NAME_IN_VALUE_CHARS && value.toLowerCase().includes(key.toLowerCase());
}

interface ValueContext {
  /** The key name the value is assigned to. */
  key: string;
  /** The key names a password proper (`db_password`). */
  isPassword: boolean;
  /** The key is an upper-case variable named for a password (`APP_DB_PASS`). */
  isPasswordVariable: boolean;
  /** Only blanks come before the key on its line. */
  opensLine: boolean;
  /** The key is a constant in code (`String DB_PASSWORD = "…"`), not a file's entry. */
  isCodeConstant: boolean;
  /** The key names a wallet's secret words (`MNEMONIC`, `seed_phrase`). */
  isMnemonic: boolean;
  /** The key opens a `.env` or shell line. */
  isEnvLine: boolean;
  /** The key is a `NAME=value` word inside a command line (`ENV`, `docker run -e`). */
  isEnvWord: boolean;
  /** The key opens a YAML-style `key: value` line (an object literal's member reads the same). */
  isYamlLine: boolean;
}

/**
 * Whether the key opens a `key: value` line (`  password: aB3!x&K9`): a YAML plain scalar holds
 * `&`, `,` and `;` as text, so the value runs to the first blank; code checks still apply.
 */
function isYamlLine(text: string, keyStart: number, keyEnd: number): boolean {
  if (text[keyEnd] !== ':' || (text[keyEnd + 1] !== ' ' && text[keyEnd + 1] !== '\t')) return false;
  const before = lineBefore(text, keyStart);
  return before.isWholeLine && /^[ \t]*(?:- )?$/.test(before.text);
}

/** Reads the value that starts at `start`, quoted or not, and returns its range if it looks like a secret. */
function readValue(text: string, start: number, context: ValueContext): ValueRange | undefined {
  let cursor = start;
  const isEnvText = context.isEnvLine || context.isEnvWord;
  let pattern = isEnvText ? ENV_VALUE : context.isYamlLine ? YAML_VALUE : UNQUOTED_VALUE;
  // Objective-C string literals: `@"..."`.
  if (text[cursor] === '@' && QUOTES.includes(text[cursor + 1] ?? '')) cursor += 1;
  const first = text[cursor] ?? '';
  const second = text[cursor + 1] ?? '';
  if (first === '\\' && QUOTES.includes(second)) {
    pattern = ESCAPED_QUOTED_VALUE.get(second) ?? UNQUOTED_VALUE;
    cursor += 2;
  } else if (QUOTES.includes(first)) {
    pattern = QUOTED_VALUE.get(first) ?? UNQUOTED_VALUE;
    cursor += 1;
  } else if (CURLY_QUOTED_VALUE.has(first)) {
    pattern = CURLY_QUOTED_VALUE.get(first) ?? UNQUOTED_VALUE;
    cursor += 1;
  }
  // A wallet's seed is a phrase of words, or else judged as any value (hex, base58).
  const phrase = context.isMnemonic ? readMnemonic(text, cursor) : undefined;
  if (phrase !== undefined) return phrase;
  AUTH_SCHEME.lastIndex = cursor;
  if (AUTH_SCHEME.exec(text) !== null) cursor = AUTH_SCHEME.lastIndex;
  pattern.lastIndex = cursor;
  const match = pattern.exec(text);
  if (match === null) return undefined;
  // An object literal's member ends with `,` or `;`, which is not the value's.
  const length = pattern === YAML_VALUE ? match[0].replace(/[,;]$/, '').length : match[0].length;
  const end = cursor + length;
  const value = text.slice(cursor, end);
  if (VENDOR_JUDGED_SHAPE.test(value) || holdsKeyName(value, context.key)) return undefined;
  // A command's word is judged as unquoted text (code checks apply), unless the line is a `.env` one.
  const isCommandWord = pattern === ENV_VALUE && !context.isEnvLine;
  const isQuoted = pattern !== UNQUOTED_VALUE && pattern !== YAML_VALUE && !isCommandWord;
  // An unquoted value alone on a line the key opens (`password: Summer2025`, `.ini` and
  // `.properties` lines): a configuration file's, unless it is code (`DB_PASSWORD = cfg.db.pw`).
  const isLineValue =
    !isQuoted &&
    (context.isYamlLine || context.opensLine) &&
    isPlainScalar(text, match[0], end) &&
    !isCodeExpression(value);
  const isMadeUpPassword =
    context.isPassword &&
    (isQuoted || isLineValue) &&
    WORDS_THEN_NUMBER.test(value) &&
    !isPlaceholderValue(value);
  const isNamedPassword =
    context.isPasswordVariable &&
    isStatedSecret(value) &&
    !SWITCH_VALUE.test(value) &&
    !(context.isCodeConstant && PROPERTY_KEY.test(value)) &&
    (isQuoted || (isCommandWord && !isCodeExpression(value)) || isLineValue);
  return isMadeUpPassword || isNamedPassword || isPlausibleSecret(value, isQuoted)
    ? { start: cursor, end }
    : undefined;
}
