import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectRedacted, expectUntouched } from '../../support/expect-redaction.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { randomChars } from '../../support/vendor-token-samples.js';

const f = createSecretFactory(31_337);
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generic-secret: assignments in every common syntax', () => {
  const forms: Array<[string, (value: string) => string]> = [
    ['YAML', (v) => `database:\n  password: ${v}\n`],
    ['YAML quoted', (v) => `api_key: "${v}"`],
    ['.env', (v) => `DB_PASSWORD=${v}`],
    ['shell export', (v) => `export API_TOKEN="${v}"`],
    ['JSON', (v) => `{"client_secret": "${v}"}`],
    ['JSON inside a string', (v) => `const body = "{\\"password\\":\\"${v}\\"}";`],
    ['TOML', (v) => `secret = '${v}'`],
    ['INI', (v) => `passwd = ${v}`],
    ['.properties', (v) => `spring.datasource.password=${v}`],
    ['Python kwarg', (v) => `connect(host="db", password="${v}")`],
    ['Go', (v) => `dbPassword := "${v}"`],
    ['PHP array', (v) => `'api_key' => '${v}',`],
    ['Ruby symbol', (v) => `auth_token: "${v}",`],
    ['TS object', (v) => `  apiKey: \`${v}\`,`],
    ['comparison', (v) => `if (password === '${v}') {`],
    ['Dockerfile', (v) => `ENV ACCESS_KEY=${v}`],
    ['Authorization header', (v) => `curl -H "Authorization: Bearer ${v}" https://api`],
    ['Basic auth header', (v) => `headers = {"Authorization": "Basic ${v}"}`],
    ['CLI flag', (v) => `deploytool --password=${v} -h db`],
    ['query string', (v) => `https://api.internal/v1?access_token=${v}&x=1`],
    ['comment', (v) => `# staging db password: ${v}`],
    ['hyphenated key', (v) => `app.jwt.signing-key=${v}`],
  ];

  it.each(forms)('%s', (_form, build) => {
    const value = f.genericSecret();
    const text = build(value);
    expectRedacted(
      text,
      value,
      'generic-secret',
      text.slice(0, text.indexOf(value)).split('\n').length,
    );
  });

  it('redacts short but varied passwords, hex and base64 values', () => {
    const xkcd = ['Tr0ub4', 'dor&3'].join('');
    expectRedacted(`password: ${xkcd}`, xkcd, 'generic-secret');
    const hex = f.hex(40);
    expectRedacted(`API_TOKEN=${hex}`, hex, 'generic-secret');
    const b64 = f.base64Secret();
    expectRedacted(`  db-password: ${b64}`, b64, 'generic-secret');
  });

  it('redacts typed passwords of short mixed-case runs split by `_`, `.`, `@` or `-` (fresh)', () => {
    // Each run changes case inside (`gtEqtV`, `bXAq`): no name splits into pieces so short. Names
    // join words the same way (`auth-token`, `user@example`), so the runs are what is judged.
    // Unquoted after `key: ` with `.` or `_` the value reads as code (`password: cfg.db_pw`), which
    // is left: an object literal's member is written the same way.
    const run = (): string => {
      for (;;) {
        const letters = randomChars(LETTERS, 4 + randomInt(3));
        if (/[a-z][A-Z]/.test(letters)) return letters;
      }
    };
    const kept: string[] = [];
    for (let index = 0; index < 500; index += 1) {
      const separator = ['_', '.', '@', '-'][randomInt(4)] ?? '_';
      const value = `${[run(), run(), run()].join(separator)}${randomInt(100)}`;
      const texts = [`DB_PASSWORD=${value}\n`, `  password: "${value}"\n`, `{"pwd": "${value}"}`];
      if (separator === '@' || separator === '-') texts.push(`  password: ${value}\n`);
      for (const text of texts) {
        if (createRedactor().redact(text).text.includes(value)) kept.push(text);
      }
    }
    expect(kept).toEqual([]);
  });

  it('redacts a word and a year on a configuration line the key opens, unquoted (fresh)', () => {
    // `.ini`, `.properties` and YAML lines: the value is the line's rest, not code.
    const words = ['Summer', 'rivermaple', 'Winter', 'Garden', 'Sunshine', 'Football'];
    for (const separator of ['', '#', '@', '_', '!']) {
      const value = `${words[randomInt(words.length)]}${separator}${10 + randomInt(90)}`;
      expectRedacted(`password: ${value}\n`, value, 'generic-secret');
      expectRedacted(`db.password=${value}\n`, value, 'generic-secret');
      expectRedacted(`smtp_pass = ${value}\n`, value, 'generic-secret');
      const typed = `${randomChars(LETTERS, 3)}_${randomChars(LETTERS, 2)}${randomInt(100)}.@${randomChars(LETTERS, 2)}`;
      expectRedacted(`APP_DB_PASS = ${typed}\n`, typed, 'generic-secret');
    }
    for (const code of [
      'DB_PASSWORD = settings.DB_PASSWORD',
      '    password = get_password()',
      '  password: pass123,',
      'DB_PASSWORD = os.environ["DB_PASSWORD"]',
    ]) {
      expectUntouched(code);
    }
  });

  it('redacts a typed password whose letters switch case inside runs too short to judge', () => {
    // `mF`, `QW`, `K`: names switch case where a word starts, this switches inside one. Lower-case
    // keys in code are judged this way; upper-case variables named for a password are stated
    // secrets (command-line-credentials.test.ts).
    expectRedacted('  db_pass: "kfn_mF88_QW.@K7"', 'kfn_mF88_QW.@K7', 'generic-secret');
    expectRedacted('"smtp_pwd": "Xq.bT_4k@Wz9u"', 'Xq.bT_4k@Wz9u', 'generic-secret');
  });

  it('redacts a word and a year joined by a symbol under a password name (fresh)', () => {
    const words = ['Summer', 'Winter', 'Autumn', 'Spring', 'Welcome', 'Dragon', 'Monkey'];
    for (const separator of ['#', '@', '_', '-', '.', '!']) {
      const value = `${words[randomInt(words.length)]}${separator}${2000 + randomInt(30)}`;
      expectRedacted(`  db_pwd: "${value}"`, value, 'generic-secret');
      expectRedacted(`smtp_pass = '${value}'`, value, 'generic-secret');
    }
  });
});

describe('generic-secret: what is not a secret', () => {
  const negatives: Array<[string, string]> = [
    ['environment reference', 'password = process.env.DB_PASSWORD'],
    ['shell variable', 'export TOKEN="${GITHUB_TOKEN}"'],
    ['bare shell variable', 'password: $DB_PASSWORD'],
    ['template', 'password: "{{ .Values.password }}"'],
    ['GitHub expression', 'token: ${{ secrets.NPM_TOKEN }}'],
    ['angle placeholder', 'api_key: <your-api-key>'],
    ['changeme', 'password=changeme'],
    ['example', 'api_key = "example-key-123456"'],
    ['xxx', 'secret: "xxxxxxxxxxxxxxxx"'],
    ['your_', 'API_KEY=your_api_key_here'],
    ['all same character', "password: '********'"],
    ['obvious word with digits', 'password = "password123"'],
    ['leetspeak', 'proxy_pass="p4ssw0rd"'],
    ['too short', 'password = "Zq8!k2m"'],
    ['function call', 'const token = getToken(request);'],
    ['member access', 'password = this.options.password'],
    ['negation', 'const pass = !this.result.issues;'],
    ['TypeScript type', 'function f(token: CommentOrToken): void {}'],
    ['generic type', 'type EndOfFileToken = Token<SyntaxKind.EndOfFileToken>;'],
    ['identifier', 'exports.isArrowToken = isArrowToken;'],
    ['identifier with digit', 'exports.Socks5Auth = Socks5Auth;'],
    ['words', 'authType: "bearer-token-header"'],
    ['sentence', "secret: 'The secret used to sign cookies'"],
    ['path', 'private_key = "/etc/ssl/private/server.key"'],
    ['URL', 'token_url = "https://oauth2.googleapis.com/token"'],
    ['name ending elsewhere', 'password_hash = "a8f5f167f44f4964e6c998dee827110c"'],
    ['word inside a word', 'bypass = "A1b2C3d4E5f6G7h8"'],
    ['pagination token', '"NextToken": "9f4d9f69-275a-41fe-b58e-2b837bd9ba48"'],
    ['idempotency token', '"ClientToken": "5289a345-0358-4e62-93d5-47ef3061d65e"'],
    ['public key token', 'publicKeyToken="1fc8b3b9a1e18e3b"'],
    ['qualified type name', '"AWS::ApiGateway::ApiKey": "48205d4ffd7feba3",'],
    [
      'badge token',
      '[![codecov](https://codecov.io/gh/o/r/graph/badge.svg?token=37tZMQE0Sy)](https://codecov.io)',
    ],
    ['keyboard mash', "'oauth_token': 'sdf0o9823sjdfsdf',"],
    ['base64 of a phrase', "auth: 'aXNhYWNzOm5vdCBteSByZWFsIHBhc3N3b3Jk',"],
    ['base64 of user:password', '"Authorization": "Basic dXNlcm5hbWU6cGFzc3dvcmQ="'],
    ['Python pass statement', 'if x:\n    pass\n'],
    ['hex literal', 'const secret = 0x5f3759df5f3759df;'],
    ['mixed-case header name', 'api_key_header: "X-Api-Key"'],
    ['mixed-case name with acronyms', 'token_type: "OAuth2-IdToken"'],
    ['a word and a year under a name that is not a password', 'token_version = "Release-2024"'],
  ];

  it.each(negatives)('%s', (_name, text) => {
    expectUntouched(text);
  });
});

describe('url-credentials', () => {
  it('redacts the password of a URL, and only the password', () => {
    const password = f.password();
    const text = `DATABASE_URL=postgres://billing:${password}@db.internal:5432/billing`;
    expectRedacted(text, password, 'url-credentials');
    expect(createRedactor().redact(text).text).toBe(
      'DATABASE_URL=postgres://billing:[REDACTED:url-credentials:1]@db.internal:5432/billing',
    );
  });

  it('redacts passwords with an empty user, percent escapes and in several schemes', () => {
    for (const template of [
      (v: string) => `redis://:${v}@cache:6379/0`,
      (v: string) => `amqp://svc:${v}@mq.internal:5672/`,
      (v: string) => `mongodb+srv://app:${v}%21@cluster0.mongodb.net/db`,
      (v: string) => `proxy = "http://ops:${v}@10.0.0.1:3128"`,
    ]) {
      const password = f.password();
      expectRedacted(template(password), password, 'url-credentials');
    }
  });

  it('leaves example, default and templated credentials alone', () => {
    expectUntouched('postgres://user:password@localhost:5432/db');
    expectUntouched('postgres://postgres:postgres@localhost:5432/db');
    expectUntouched('amqp://guest:guest@localhost:5672/');
    expectUntouched(`const url = \`postgres://\${user}:\${pass}@\${host}/db\`;`);
    expectUntouched('https://abc:xyz@example.com/path');
    expectUntouched(`http://john:${f.password()}@example.org/`);
    expectUntouched('mongodb://admin:mysecretpassword@db:27017');
    expectUntouched('http://user:pass%20pass@complex.url.com/path');
    expectUntouched('url.parse("https://anonymous:flabada@developer.mozilla.org/");');
    expectUntouched('see http://localhost:8080/@scope/package');
  });
});
