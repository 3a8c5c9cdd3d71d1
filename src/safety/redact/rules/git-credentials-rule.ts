import { isStatedSecret } from '../is-stated-secret.js';
import type { AnchoredRule, ValueRange } from '../redaction-rule.js';
import { decodePercent, isExampleHostAt, isSelfNamingPassword } from './url-credential-rule.js';

// After the scheme: `user:password@host[:port][/path]` and nothing else to the line's end, as
// `git credential-store` writes it. Group 1 is the password.
const REST_OF_LINE =
  /:\/\/[^\s:@/?#"'`]{1,128}:([^\s@/?#"'`]{1,256})@(?=[A-Za-z0-9[])[A-Za-z0-9.[\]:-]{1,253}(?:\/[^\s]*)?[ \t]*(?=\r?\n|$)/dy;
// What git's credential store holds: http and https URLs, each alone on its line.
const SCHEME = /^[ \t]*https?$/i;
const MAX_SCHEME_CHARS = 32;

/**
 * A `.git-credentials` line in any file (`https://user:password@host`, alone on its line): the
 * password, which the line's shape says is one, so it is judged only for being a stand-in.
 */
export const GIT_CREDENTIALS_RULE: AnchoredRule = {
  id: 'git-credentials',
  description:
    'The password of a .git-credentials line (https://user:password@host alone on a line)',
  keywords: ['://'],
  scope: 'anchored',
  findAt(text: string, at: number): ValueRange | undefined {
    const before = text.slice(Math.max(0, at - MAX_SCHEME_CHARS), at);
    const lineStart = before.lastIndexOf('\n');
    if (lineStart === -1 && at > MAX_SCHEME_CHARS) return undefined;
    if (!SCHEME.test(before.slice(lineStart + 1))) return undefined;
    REST_OF_LINE.lastIndex = at;
    const match = REST_OF_LINE.exec(text);
    const range = match?.indices?.[1];
    if (match === null || range === undefined) return undefined;
    const password = decodePercent(match[1] ?? '');
    if (!isStatedSecret(password) || isSelfNamingPassword(password) || /\s/.test(password)) {
      return undefined;
    }
    return isExampleHostAt(text, range[1] + 1) ? undefined : { start: range[0], end: range[1] };
  },
};
