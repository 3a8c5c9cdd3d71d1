import { describe, expect, it } from 'vitest';
import { isLowSeverityRule } from '../../../src/safety/redact/redaction-rules.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectRedacted, expectUntouched } from '../../support/expect-redaction.js';
import { randomChars } from '../../support/vendor-token-samples.js';

// Keyword arguments, credential columns, PuTTY keys and password hashes, drawn afresh each run.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CRYPT = `./${ALNUM}`;
const B64 = `${ALNUM}+/`;
const fresh = (): string => `${randomChars(ALNUM, 19)}${randomChars('0123456789', 1)}`;

describe('keyword-argument passwords', () => {
  const FORMS: ReadonlyArray<(v: string) => string> = [
    (v) => `conn = psycopg2.connect(host="db", user="app", password="${v}")`,
    (v) => `client = Client(api_key='${v}', timeout=3)`,
    (v) => `val db = Database.connect(url, user = "app", password = "${v}")`,
    (v) => `Redis.new(host: "cache", password: '${v}')`,
    (v) => `var client = new SmtpClient(host, credentials: new("bot", password: "${v}"));`,
    (v) => `connect(user: "app", password: "${v}")`,
  ];
  it.each(FORMS.map((form, index) => [index, form] as const))('form %i is redacted', (_i, form) => {
    const value = fresh();
    const result = createRedactor().redact(form(value));
    expect(result.text).not.toContain(value);
  });
});

describe('credential-named CSV columns', () => {
  it('hides every cell of the password and token columns, in CSV, TSV and ; tables', () => {
    for (const separator of [',', '\t', ';']) {
      const rows = Array.from({ length: 4 }, () => [fresh(), fresh()]);
      const text = [
        ['id', 'email', 'password', 'api_token'].join(separator),
        ...rows.map(([pw, token], index) =>
          [String(index), `u${index}@corp.io`, pw, token].join(separator),
        ),
      ].join('\n');
      const result = createRedactor().redact(text);
      for (const value of rows.flat()) expect(result.text).not.toContain(value);
      expect(result.text).toContain('u3@corp.io');
    }
  });

  it('leaves other columns, attribute columns and code alone', () => {
    expectUntouched(`id,name,token_url\n1,${fresh()},https://a.b/c`);
    expectUntouched('const fields = ["name", "password"]; f(a,password,b)');
    expectUntouched('user,password\nalice,changeme\nbob,${BOB_PASSWORD}');
  });
});

describe('PuTTY private keys', () => {
  it('hides the private lines of a version 2 and a version 3 key', () => {
    for (const version of ['2', '3']) {
      const privateLines = [randomChars(B64, 64), randomChars(B64, 28)];
      const text = [
        `PuTTY-User-Key-File-${version}: ssh-rsa`,
        'Encryption: none',
        'Comment: deploy@ci',
        'Public-Lines: 2',
        randomChars(B64, 64),
        randomChars(B64, 20),
        'Private-Lines: 2',
        ...privateLines,
        `Private-MAC: ${randomChars('0123456789abcdef', 64)}`,
      ].join('\n');
      const result = createRedactor().redact(text);
      for (const line of privateLines) expect(result.text).not.toContain(line);
      expect(result.redactions.map((r) => r.rule)).toEqual(['putty-private-key']);
    }
  });
});

describe('password hashes', () => {
  const HASHES: ReadonlyArray<[string, () => string]> = [
    ['bcrypt', () => `$2b$12$${randomChars(CRYPT, 53)}`],
    ['bcrypt 2y', () => `$2y$10$${randomChars(CRYPT, 53)}`],
    [
      'argon2id',
      () => `$argon2id$v=19$m=65536,t=3,p=4$${randomChars(B64, 22)}$${randomChars(B64, 43)}`,
    ],
    ['sha256-crypt', () => `$5$${randomChars(CRYPT, 16)}$${randomChars(CRYPT, 43)}`],
    ['sha512-crypt', () => `$6$rounds=5000$${randomChars(CRYPT, 16)}$${randomChars(CRYPT, 86)}`],
  ];
  it.each(HASHES)('a %s hash is its own low-severity kind', (_name, make) => {
    const hash = make();
    expectRedacted(`admin:${hash}:19000:0:99999:7:::`, hash, 'password-hash');
    expectRedacted(`  password_digest: "${hash}"`, hash, 'password-hash');
  });

  it('is the only low-severity kind', () => {
    expect(isLowSeverityRule('password-hash')).toBe(true);
    expect(isLowSeverityRule('generic-secret')).toBe(false);
    expect(isLowSeverityRule('pem-private-key')).toBe(false);
  });

  it('leaves truncated hashes and prose alone', () => {
    expectUntouched(`$2b$12$${randomChars(CRYPT, 20)}`);
    expectUntouched('costs $5$ and $6$ in prose');
  });
});
