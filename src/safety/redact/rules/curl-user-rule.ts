import { hasTemplateOrMarker, isPlaceholderValue } from '../is-placeholder-value.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';

// How many continued lines (`\` at the end) back the `curl` may stand.
const MAX_CONTINUED_LINES = 5;
// Shorter user names or passwords are examples (`u:p`).
const MIN_PART_CHARS = 3;
// After `-u` or `--user`: `=` or blanks, then the credentials.
const OPTION_END = /(?:=|[ \t]+)/y;
// `"user:pass"`, `'user:pass'`, `"user":"pass"` or a bare `user:pass`.
const CREDENTIALS = /"[^"\n]{1,256}"(?::"[^"\n]{1,256}")?|'[^'\n]{1,256}'|[^\s"'`;|&<>]{1,256}/y;

/** Whether the option at `at` belongs to a `curl` command on its line or a continued line before. */
function isCurlOption(text: string, at: number): boolean {
  let lineEnd = at;
  for (let lines = 0; lines <= MAX_CONTINUED_LINES; lines += 1) {
    const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
    if (/(?:^|[\s;&|(`$])curl(?:\.exe)?\s/.test(text.slice(lineStart, lineEnd))) return true;
    if (lineStart === 0 || !/\\\r?\n$/.test(text.slice(Math.max(0, lineStart - 3), lineStart)))
      return false;
    lineEnd = lineStart - 1;
  }
  return false;
}

/** The password of `user:password`, or the user when there is no password (an API key as user). */
function secretPart(credentials: string, start: number): ValueRange | undefined {
  const colon = credentials.indexOf(':');
  if (colon === -1) return undefined;
  const user = credentials.slice(0, colon).replace(/^["']|["']$/g, '');
  const password = credentials.slice(colon + 1).replace(/^["']|["']$/g, '');
  const isUserOnly = password.length === 0;
  const part = isUserOnly ? user : password;
  if (part.length < MIN_PART_CHARS || hasTemplateOrMarker(part) || isPlaceholderValue(part))
    return undefined;
  if (!isUserOnly && part === user) return undefined;
  const offset = isUserOnly ? credentials.indexOf(user) : credentials.indexOf(password, colon + 1);
  return { start: start + offset, end: start + offset + part.length };
}

/** `curl -u user:password` and `curl --user "user:password"`. */
export const CURL_USER_RULE: AnchoredRule = {
  id: 'curl-user-password',
  description: 'The password (or API key as user) passed to curl with -u or --user',
  keywords: ['-u', '--user'],
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    if (at > 0 && !/\s/.test(text[at - 1] ?? '')) return undefined;
    const optionEnd = at + (text.slice(at, at + 6).toLowerCase() === '--user' ? 6 : 2);
    OPTION_END.lastIndex = optionEnd;
    if (OPTION_END.exec(text) === null) return undefined;
    const start = OPTION_END.lastIndex;
    CREDENTIALS.lastIndex = start;
    const match = CREDENTIALS.exec(text);
    if (match === null || !isCurlOption(text, at)) return undefined;
    return secretPart(match[0], start);
  },
};
