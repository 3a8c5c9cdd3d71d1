import { isStatedSecret } from '../is-stated-secret.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';

// An entry is read this far at most: `machine`, its host and a few name-value pairs.
const MAX_ENTRY_CHARS = 1024;
const MAX_TOKENS = 24;
// The names an entry holds (`.netrc`, and `.authinfo` with its `port`, `protocol` and `force`).
const ENTRY_NAMES = new Set(['login', 'user', 'account', 'password', 'port', 'protocol', 'force']);
// Logins that the public uses, whose password is an e-mail address or nothing.
const PUBLIC_LOGINS = new Set(['anonymous', 'ftp']);
// A token: quoted, or a run up to a blank, a quote, or an escaped line break of a string literal.
const TOKEN = /"((?:[^"\\\n]|\\.){1,256})"|([^\s"'`\\]{1,256})/y;
const BLANKS = /(?:\s|\\[nrt])*/y;

interface Token {
  text: string;
  start: number;
  end: number;
}

/**
 * A `.netrc` or `.authinfo` entry in any file (`machine host login user password X`, on one line
 * or several, or written by a script or held in a string): the password.
 */
export const NETRC_RULE: AnchoredRule = {
  id: 'netrc-password',
  description: 'The password of a .netrc or .authinfo entry (machine ... login ... password ...)',
  keywords: ['machine', 'default'],
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    if (at > 0 && /[\w.-]/.test(text[at - 1] ?? '')) return undefined;
    const tokens = readTokens(text, at);
    const isDefault = tokens[0]?.text.toLowerCase() === 'default';
    const pairs = new Map<string, Token>();
    for (let index = isDefault ? 1 : 2; index + 1 < tokens.length; index += 2) {
      const name = (tokens[index] as Token).text;
      if (!ENTRY_NAMES.has(name) || pairs.has(name)) break;
      pairs.set(name, tokens[index + 1] as Token);
    }
    const login = pairs.get('login') ?? pairs.get('user');
    const password = pairs.get('password');
    if (login === undefined || password === undefined) return undefined;
    if (PUBLIC_LOGINS.has(login.text.toLowerCase()) || !isStatedSecret(password.text)) {
      return undefined;
    }
    return { start: password.start, end: password.end };
  },
};

/** The blank-separated tokens from `at`, with where each one's text stands. */
function readTokens(text: string, at: number): Token[] {
  const end = Math.min(text.length, at + MAX_ENTRY_CHARS);
  const tokens: Token[] = [];
  let index = at;
  while (tokens.length < MAX_TOKENS && index < end) {
    TOKEN.lastIndex = index;
    const match = TOKEN.exec(text);
    if (match === null) break;
    const quoted = match[1] !== undefined;
    const body = match[1] ?? match[2] ?? '';
    const start = match.index + (quoted ? 1 : 0);
    tokens.push({ text: body, start, end: start + body.length });
    BLANKS.lastIndex = TOKEN.lastIndex;
    BLANKS.exec(text);
    if (BLANKS.lastIndex === TOKEN.lastIndex) break;
    index = BLANKS.lastIndex;
  }
  return tokens;
}
