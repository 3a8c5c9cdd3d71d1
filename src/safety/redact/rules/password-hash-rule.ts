import type { AnchoredRule, ValueRange } from '../redaction-rule.js';

// Modular-crypt password hashes: bcrypt (`$2a$`, `$2b$`, `$2y$`: cost, then 53 characters of salt
// and hash), argon2 (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) and SHA-crypt (`$5$`, `$6$`, an
// optional rounds field, a salt of up to 16 characters, then 43 or 86 characters).
const HASH = new RegExp(
  [
    String.raw`\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}`,
    String.raw`\$argon2(?:id|i|d)\$v=\d{1,3}\$m=\d{1,8},t=\d{1,4},p=\d{1,3}\$[A-Za-z0-9+/]{8,88}\$[A-Za-z0-9+/]{16,128}`,
    String.raw`\$5\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43}`,
    String.raw`\$6\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{86}`,
  ].join('|') + String.raw`(?![./A-Za-z0-9+])`,
  'y',
);

/**
 * A password hash (bcrypt, argon2, SHA-crypt): not a credential itself, but an offline guessing
 * target, so it is hidden and reported as its own, low-severity kind.
 */
export const PASSWORD_HASH_RULE: AnchoredRule = {
  id: 'password-hash',
  description: 'A password hash (bcrypt $2b$, argon2 $argon2id$, SHA-crypt $5$/$6$)',
  keywords: ['$2a$', '$2b$', '$2y$', '$argon2', '$5$', '$6$'],
  scope: 'anchored',
  severity: 'low',
  findAt(text: string, at: number): ValueRange | undefined {
    HASH.lastIndex = at;
    const match = HASH.exec(text);
    return match === null ? undefined : { start: at, end: at + match[0].length };
  },
};
