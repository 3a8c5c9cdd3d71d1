// Whether a key, flag or variable name names a credential. A name is read as words (separators,
// camel case and digits split it; `PGPASSWORD` stays one word); it names one when it contains a
// word ending with a credential word, glued or not (`PGPASSWORD`, `SSHPASS`, `AUTHTOKEN`,
// `storepass`, `LDAP_BIND_PW`, `db_pass_secure`), and no word after it names an attribute of the
// credential (`token_url`, `private_key_id`). English words that hold one (`bypass`, `monkey`,
// `author`, `tokenizer`, `secretary`) do not end with it or are named below; the value judge
// decides the rest.

// Words after a credential word that make the name about something else than its value: where
// it is, what it is called, how long it lives, how it is checked. Any other word after it (an
// environment, an owner, an encoding: `DB_PASSWORD_PROD`, `apikey_myservice`, `api_key_b64`)
// leaves the name a credential's, so a word missing here errs on the side of redacting.
const ATTRIBUTES = new Set(
  [
    'id ids uuid guid kid arn name names type types kind url uri urls endpoint host hostname domain',
    'path paths file files filename dir directory folder location length len size count min max',
    'limit ttl timeout expiry expires expiration expire lifetime age validity at header headers',
    'prefix suffix format field fields label column param parameter placeholder hint help',
    'description desc message msg error errors policy rule rules regex pattern mode method scheme',
    'strategy provider algorithm alg version index hash digest checksum fingerprint sha md5',
    'enabled disabled required visible valid status state source ref reference template char chars',
    'charset range alphabet',
  ].flatMap((line) => line.split(' ')),
);
// Credential words a name may end with, glued to what comes before (`PGPASSWORD`, `AUTHTOKEN`).
const GLUED_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'credential',
  'credentials',
  'creds',
  'token',
  'mnemonic',
  'authorization',
  'pwd',
  'pass',
  'auth',
];
// English words ending in `pass` that name no password.
const PASS_WORDS = new Set([
  'bypass',
  'compass',
  'encompass',
  'surpass',
  'trespass',
  'overpass',
  'underpass',
  'multipass',
  'subpass',
]);
// A glued `pw` ends a short name (`rootpw`, `BINDPW`); longer ones are other words.
const MAX_GLUED_PW_CHARS = 8;
// `bindPw`: the word before a camel-case `Pw` is a word, not a letter of base64.
const MIN_CAMEL_PW_PREVIOUS_CHARS = 3;
// Tokens that page, order or deduplicate requests, or defend forms: handles, not credentials.
const HANDLE_TOKEN_WORDS = new Set(
  'next|prev|previous|page|continuation|client|request|lock|idempotency|pagination|cursor|sync|update|change|copy|public|publickey|csrf|xsrf|cancel|cancellation|continue|resume|marker|unit|verification|sequence|upload|batch|forward|backward|start|end|last|first|iterator|shard|stream|grant|authenticity'.split(
    '|',
  ),
);
/** `<VENDOR>_KEY` names a credential; these `_key` names name a lookup, an index or a public half. */
export const HANDLE_KEY_WORDS = new Set(
  'public|publishable|pub|cache|sort|partition|primary|foreign|unique|idempotency|dedup|row|hash|lookup|map|i18n|translation|message|label|storage|object|s3|file|name|id|index|hot|short|shortcut|react|list|route|query|hmr|group|entry|state|field|item|column|table|node|child|parent|redis|prefix|config|env|default|license|site|recaptcha|captcha|maps|analytics|tracking|ga|sentry|dsn|search'.split(
    '|',
  ),
);
// What glued before `key` makes a credential's name (`apikey`, `SSHKEY`, `privkey`); `monkey`,
// `hotkey`, `pubkey` and `sortkey` are not.
const KEY_PREFIXES = [
  'api',
  'access',
  'secret',
  'private',
  'priv',
  'master',
  'signing',
  'sign',
  'encryption',
  'encrypt',
  'decryption',
  'decrypt',
  'crypt',
  'crypto',
  'cipher',
  'account',
  'auth',
  'client',
  'app',
  'ssh',
  'hmac',
  'session',
  'jwt',
  'consumer',
  'service',
  'shared',
  'deploy',
  'webhook',
  'server',
  'aes',
  'root',
  'admin',
];
// Who owns a seed that is a secret (a wallet's), and the words that say a seed is a phrase.
const SEED_OWNERS = new Set([
  'wallet',
  'master',
  'recovery',
  'mnemonic',
  'private',
  'hd',
  'secret',
]);
const PHRASE_WORDS = new Set(['phrase', 'words']);
const PHRASE_OWNERS = new Set(['seed', 'mnemonic', 'recovery', 'secret', 'backup', 'wallet']);
// Camel-case words, acronyms and digit runs.
const NAME_WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;

/** A name's words, lower case: `LDAP_BIND_PW` -> ldap, bind, pw; `dbPassword2` -> db, password, 2. */
export function nameWords(name: string): string[] {
  return (name.match(NAME_WORD) ?? []).map((word) => word.toLowerCase());
}

/** What a secret name names, or undefined: most names name a password, a token or a key. */
export type SecretNameKind = 'credential' | 'bare-key' | 'mnemonic';

/** Whether a name names a credential, and how (a bare `key` and a mnemonic are judged apart). */
export function readSecretName(name: string): SecretNameKind | undefined {
  // A name is an identifier, a flag (`--password`) or a key of words (`8x8_secret`); `5pw=` in
  // base64 is none of these.
  if (!/^[-_.$@]*[A-Za-z]/.test(name) && !/[_.-]/.test(name)) return undefined;
  const words = nameWords(name);
  // The last word that names a credential decides; a word after it may say the name is about
  // something else of the credential (`token_url`, `private_key_id`, `secret_arn`).
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const kind = readCredentialWord(name, words, index);
    if (kind === undefined) continue;
    return words.slice(index + 1).some((word) => ATTRIBUTES.has(word)) ? undefined : kind;
  }
  return undefined;
}

/** Whether the word at `index` names a credential, given the words before it. */
function readCredentialWord(
  name: string,
  words: readonly string[],
  index: number,
): SecretNameKind | undefined {
  const word = words[index] ?? '';
  const previous = words[index - 1];
  const beforePrevious = words[index - 2];
  if (isMnemonicName(word, previous)) return 'mnemonic';
  if (word === 'key') {
    if (previous === undefined) return 'bare-key';
    // `obj.key = ...` is a member of an object, not a named key (`tls_key`, `accountKey`).
    if (index === words.length - 1 && /\.key[^A-Za-z]*$/i.test(name)) return undefined;
    return HANDLE_KEY_WORDS.has(previous) ? undefined : 'credential';
  }
  if (word.endsWith('key')) {
    return KEY_PREFIXES.some((prefix) => word.slice(0, -3).endsWith(prefix))
      ? 'credential'
      : undefined;
  }
  if (word.endsWith('pw')) {
    return index === words.length - 1 && isPasswordAbbreviation(name, word, previous)
      ? 'credential'
      : undefined;
  }
  // `private` before a noun is that noun's kind (`private_ip`, `private_subnet`); it names a key
  // only at the end (`SSH_PRIVATE`).
  if (word === 'private' || word === 'priv') {
    return index === words.length - 1 ? 'credential' : undefined;
  }
  const ending = GLUED_ENDINGS.find((candidate) => word.endsWith(candidate));
  if (ending === undefined || PASS_WORDS.has(word)) return undefined;
  if (ending === 'token' && isHandleToken(word, previous, beforePrevious)) return undefined;
  return 'credential';
}

/**
 * Whether `pw` ends a name as a word: `LDAP_BIND_PW`, `db.pw`, `bindPw`, or a short name of one
 * case (`rootpw`, `BINDPW`). Base64 is full of `Pw` after a letter or two (`Li4uPw==`).
 */
function isPasswordAbbreviation(name: string, word: string, previous?: string): boolean {
  if (word === name.toLowerCase()) return word.length <= MAX_GLUED_PW_CHARS;
  if (word !== 'pw') return false;
  const at = name.toLowerCase().lastIndexOf('pw');
  if (/[_.-]/.test(name[at - 1] ?? '')) return true;
  return (
    previous !== undefined && previous.length >= MIN_CAMEL_PW_PREVIOUS_CHARS && !/\d/.test(name)
  );
}

/** `next_token`, `pageToken`, `csrftoken`, `publicKeyToken`: handles, not credentials. */
function isHandleToken(word: string, previous?: string, beforePrevious?: string): boolean {
  const glued = word.slice(0, -'token'.length);
  if (glued !== '') return HANDLE_TOKEN_WORDS.has(glued);
  if (previous === undefined) return false;
  return HANDLE_TOKEN_WORDS.has(previous) || HANDLE_TOKEN_WORDS.has(`${beforePrevious}${previous}`);
}

/** `MNEMONIC`, `seed_phrase`, `walletSeed`, `recovery_words`: a wallet's secret words. */
function isMnemonicName(word: string, previous?: string): boolean {
  if (word.endsWith('mnemonic') || word === 'seedphrase' || word === 'seedwords') return true;
  if (word === 'seed') return previous !== undefined && SEED_OWNERS.has(previous);
  return PHRASE_WORDS.has(word) && previous !== undefined && PHRASE_OWNERS.has(previous);
}
