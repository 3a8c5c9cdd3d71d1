import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectRedacted, expectUntouched } from '../../support/expect-redaction.js';
import { randomChars } from '../../support/vendor-token-samples.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const fresh = (): string => randomChars(ALNUM, 32);
const j = (...parts: string[]): string => parts.join('');

const FORMS: ReadonlyArray<[string, (value: string) => string]> = [
  ['Go typed var', (v) => `var apiToken string = "${v}"`],
  ['Rust typed let', (v) => `let api_token: &str = "${v}";`],
  ['Java setProperty', (v) => `System.setProperty("SERVICE_TOKEN", "${v}");`],
  ['Makefile ?=', (v) => `SERVICE_TOKEN ?= "${v}"`],
  ['Makefile ::=', (v) => `SERVICE_TOKEN ::= ${v}`],
  ['Makefile :::=', (v) => `SERVICE_TOKEN :::= ${v}`],
  ['PHP .=', (v) => `$serviceToken .= "${v}";`],
  ['XML own line', (v) => `<serviceToken>\n    ${v}\n</serviceToken>`],
  ['XML inline', (v) => `<password>${v}</password>`],
  ['name ending in a digit', (v) => `api_token2 = "${v}"`],
  ['vendor _KEY name', (v) => `MAILGUN_KEY=${v}`],
  ['log line with a bare Key', (v) => `[DEBUG] Using Key=${v}`],
  ['camel-case Key name', (v) => `private const string storageAccountKey = "${v}";`],
  ['Token after an acronym', (v) => `ETSYToken := "${v}"`],
  ['name - quoted value', (v) => `webex token - '${v}'`],
  ['NuGet value attribute', (v) => `<add key="ClearTextPassword" value="${v}" />`],
  ['literal compared with the name', (v) => `if ("${v}" === private_key) {`],
  ['Objective-C string', (v) => `password = @"${v}";`],
];

console.log(`context forms: ${FORMS.length + 2 + 7 + 5 + 2} cases`);

describe('new context forms keep their near misses', () => {
  it('a typed password with stray template marks is redacted; a real template is not', () => {
    const value = j(
      randomChars(ALNUM, 3),
      '{{',
      randomChars(ALNUM, 2),
      '}',
      ')',
      '${',
      randomChars(ALNUM, 4),
      ']#',
    );
    expectRedacted(`apikey = "${value}"`, value, 'generic-secret');
    // Digits alone inside the stray braces make a `{18}` that reads like a format placeholder.
    const withDigits = j(
      randomChars(ALNUM, 3),
      '{{',
      randomChars('0123456789', 2),
      '}',
      ')',
      '${',
      randomChars(ALNUM, 4),
      ']#',
    );
    expectRedacted(`apikey = "${withDigits}"`, withDigits, 'generic-secret');
    expectUntouched('apikey = "${SERVICE_API_KEY}"');
    expectUntouched('password = "Hello {0}, your key is {1}"');
  });

  it('a header built from an interpolated call is code; a literal secret passed to the call is not', () => {
    expectUntouched("headers: { Authorization: `Bearer ${localStorage.getItem('token')}` },");
    expectUntouched('authToken: `Bearer ${this.auth?.currentToken()}`,');
    expectUntouched('headers = {"Authorization": f"Bearer {os.environ.get(\'API_TOKEN\')}"}');
    // The secret inside the call is still judged as a value.
    const secret = `${randomChars(ALNUM, 20)}9${randomChars(ALNUM, 11)}`;
    expectRedacted(`authToken: \`Bearer \${decode('${secret}')}\`,`, secret, 'generic-secret');
  });

  it('leaves short bare keys, handle keys, arithmetic and other attributes alone', () => {
    expectUntouched(`key = "${randomChars(ALNUM, 12)}"`);
    expectUntouched(`const cacheKey = "${fresh()}";`);
    expectUntouched(`total = count - '${fresh()}'`);
    expectUntouched(`<add key="Timeout" value="${fresh()}" />`);
    expectUntouched(`if ("${fresh()}" === username) {`);
    expectUntouched('hmac(key: Uint8Array, data: Uint8Array): Uint8Array;');
    expectUntouched('exports.SignatureV4SignWithCredentials = SignatureV4SignWithCredentials;');
  });
});

describe('generic-secret context forms', () => {
  it.each(FORMS)('%s: a fresh value is redacted', (_name, form) => {
    const value = fresh();
    const text = form(value);
    const result = createRedactor().redact(text);
    expect(result.text).not.toContain(value);
    expect(result.redactions.map((r) => r.rule)).toContain('generic-secret');
  });

  it('an unquoted dotted value after a secret name is a value, not code', () => {
    const value = j('abc', '.', randomChars(ALNUM, 40));
    expectRedacted(`SERVICE_TOKEN=${value}`, value, 'generic-secret');
  });

  it('the control: without the rules the value stays', () => {
    const value = fresh();
    expect(createRedactor({ rules: [] }).redact(`var apiToken string = "${value}"`).text).toContain(
      value,
    );
  });

  it('leaves identifiers, type annotations, lookup keys and prose alone', () => {
    expectUntouched('password: string;');
    expectUntouched('var apiToken string = os.Getenv("API_TOKEN")');
    expectUntouched('SERVICE_TOKEN ?= $(shell cat token.txt)');
    expectUntouched('const token = config.auth.serviceToken;');
    expectUntouched('cache_key = "users:list:all:v2"');
    expectUntouched('<password>\n    ${DB_PASSWORD}\n</password>');
    expectUntouched(`public_key = "${randomChars(ALNUM, 40)}"`);
  });
});

describe('made-up-value heuristics never fire on long random values', () => {
  it('2,000 fresh tokens in `token = "..."` form are all redacted', () => {
    const shapes = [
      () => j('do', 'p_v1_', randomChars(HEX, 64)),
      () => randomChars(HEX, 40),
      () => randomChars(LOWER_ALNUM, 32),
      () => randomChars(ALNUM, 40),
    ];
    const redactor = createRedactor();
    const kept: string[] = [];
    for (let index = 0; index < 2000; index += 1) {
      const value = (shapes[index % shapes.length] ?? fresh)();
      if (redactor.redact(`token = "${value}"`).text.includes(value)) kept.push(value);
    }
    expect(kept).toEqual([]);
  });
});

describe('connection strings', () => {
  const word = (): string =>
    j('Blue', randomChars('abcdefghijklmnopqrstuvwxyz', 5), randomChars('0123456789', 4));

  it('redacts a mixed-case word-and-number password in a URL, jdbc string and query', () => {
    const mysql = word();
    expectRedacted(`mysql://devuser:${mysql}@db.internal:3306/app`, mysql, 'url-credentials');
    const jdbc = randomChars(ALNUM, 16);
    expectRedacted(`jdbc:sqlserver://h:1433;user=sa;password=${jdbc};`, jdbc, 'generic-secret');
    const query = randomChars(ALNUM, 16);
    expectRedacted(`https://h.internal/api?user=a&password=${query}`, query, 'generic-secret');
  });

  it('leaves templated and lower-case example passwords alone', () => {
    expectUntouched('mysql://devuser:${DB_PASSWORD}@db.internal:3306/app');
    expectUntouched('amqp://guest:guest2@localhost:5672/');
  });
});

describe('values the heuristics must never call made up', () => {
  const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

  it('redacts unquoted random letters with no digit (not an identifier), and keeps real names', () => {
    const redactor = createRedactor();
    const kept: string[] = [];
    for (let index = 0; index < 500; index += 1) {
      const value = randomChars(LETTERS, 16);
      if (redactor.redact(`password=${value}`).text.includes(value)) kept.push(value);
    }
    // Before, every such value was taken for a name, then about 3% were read as camel-case words;
    // the letter-triple check leaves about one in 10,000.
    expect(kept.length, kept.join(' ')).toBeLessThan(3);
    expectUntouched('password=EndOfFileToken');
  });

  it('leaves no tail of a URL-safe Logic Apps signature in clear', () => {
    for (let index = 0; index < 200; index += 1) {
      const tail = randomChars(ALNUM, 10);
      const signature = `${randomChars(ALNUM, 32)}-${tail}`;
      const url = `https://oy.logic.azure.com/workflows/x/triggers/manual/paths/invoke?sv=1.0&sig=${signature}`;
      const text = createRedactor().redact(url).text;
      expect(text).not.toContain(tail);
    }
  });
});
