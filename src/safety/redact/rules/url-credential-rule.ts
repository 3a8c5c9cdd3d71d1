import { hasTemplateOrMarker, isPlaceholderValue } from '../is-placeholder-value.js';
import { looksLikeWords } from '../looks-like-words.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';

// `://user:password@host`: group 1 the user, group 2 the password; neither may hold URL delimiters.
const USERINFO = /:\/\/([^\s:@/?#"'`<>\\]{0,128}):([^\s@/?#"'`<>\\]{1,256})@(?=[A-Za-z0-9[])/dy;
// Hosts reserved for documentation (RFC 2606): whatever credentials they carry are examples.
const EXAMPLE_HOST = /(?:[A-Za-z0-9-]+\.)*example(?:\.(?:com|org|net))?(?![A-Za-z0-9.-])/y;
// Passwords shorter than this are examples (`u:p@`).
const MIN_URL_PASSWORD_CHARS = 3;
// Letters-only passwords naming themselves (`mysecretpassword`, `dbpass`) are documentation.
const SELF_NAMING_PASSWORD = /^[a-z_-]*(?:pass|secret|pwd|token|key)[a-z_-]*$/i;
// Short passwords made of words (`flabada`, `guest2`) are examples; longer ones may be passphrases.
const MAX_WORDS_EXAMPLE_CHARS = 16;
// Mixed-case words with a number (`mySecret2024`) are how people make real passwords.
const WORDS_AND_NUMBER = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d{2})[A-Za-z0-9!#$%^&*_.~-]{8,}$/;

/** Whether the password part of a URL is a real password rather than an example. */
function isUrlPassword(user: string, encodedPassword: string): boolean {
  const password = decodePercent(encodedPassword);
  if (password.length < MIN_URL_PASSWORD_CHARS || password === decodePercent(user)) return false;
  if (WORDS_AND_NUMBER.test(password)) return !hasTemplateOrMarker(password);
  if (password.length < MAX_WORDS_EXAMPLE_CHARS && looksLikeWords(password)) return false;
  return !isPlaceholderValue(password) && !SELF_NAMING_PASSWORD.test(password);
}

/** Whether the host starting at `at` is one reserved for documentation (`example.com`). */
export function isExampleHostAt(text: string, at: number): boolean {
  EXAMPLE_HOST.lastIndex = at;
  return EXAMPLE_HOST.test(text);
}

/** Whether a password names itself (`mysecretpassword`, `dbpass`): documentation. */
export function isSelfNamingPassword(password: string): boolean {
  return SELF_NAMING_PASSWORD.test(password);
}

/** Percent-decoding that never throws: a malformed escape leaves the text as it is. */
export function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export const URL_CREDENTIAL_RULE: AnchoredRule = {
  id: 'url-credentials',
  description: 'The password in a URL (scheme://user:password@host)',
  keywords: ['://'],
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    USERINFO.lastIndex = at;
    const match = USERINFO.exec(text);
    const range = match?.indices?.[2];
    if (match === null || range === undefined) return undefined;
    if (!isUrlPassword(match[1] ?? '', match[2] ?? '')) return undefined;
    if (isExampleHostAt(text, USERINFO.lastIndex)) return undefined;
    return { start: range[0], end: range[1] };
  },
};
