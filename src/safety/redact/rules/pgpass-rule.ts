import { isStatedSecret } from '../is-stated-secret.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';

// A `.pgpass` line after its host: `:port:database:user:password` to the line's end, `\:` and `\\`
// escaped inside a field; the port a number or `*`. Group 1 is the password.
const FIELD = String.raw`(?:[^:\s\\]|\\.)+`;
const AFTER_HOST = new RegExp(
  String.raw`:(?:\d{1,5}|\*):${FIELD}:${FIELD}:((?:[^:\s\\]|\\[^\s]){1,256})[ \t]*(?=\r?\n|$)`,
  'dy',
);
// The host field: a name, an address or `*`, after blanks at the line's start.
const HOST = /^[ \t]*(?:\*|(?=[^:\s]*[A-Za-z.])[A-Za-z0-9._\-[\]]{1,253})$/;
const MAX_HOST_CHARS = 260;
const HOST_CHAR = /[A-Za-z0-9._\-[\]* \t]/;

/** A `.pgpass` line in any file (`host:port:database:user:password`): the password. */
export const PGPASS_RULE: AnchoredRule = {
  id: 'pgpass-password',
  description: 'The password of a .pgpass line (host:port:database:user:password)',
  // The colon before the port field: a digit or `*` after it.
  keywords: [...'0123456789*'].map((char) => `:${char}`),
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    // Back over host characters only, so a long line of `"a":1` pairs costs one step per hit.
    let lineStart = at;
    while (
      lineStart > 0 &&
      at - lineStart <= MAX_HOST_CHARS &&
      HOST_CHAR.test(text[lineStart - 1] ?? '')
    ) {
      lineStart -= 1;
    }
    if (lineStart > 0 && text[lineStart - 1] !== '\n') return undefined;
    if (!HOST.test(text.slice(lineStart, at))) return undefined;
    AFTER_HOST.lastIndex = at;
    const match = AFTER_HOST.exec(text);
    const range = match?.indices?.[1];
    if (match === null || range === undefined || !isStatedSecret(match[1] ?? '')) return undefined;
    return { start: range[0], end: range[1] };
  },
};
