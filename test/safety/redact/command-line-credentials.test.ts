import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectUntouched } from '../../support/expect-redaction.js';
import { randomChars } from '../../support/vendor-token-samples.js';

// Credentials passed on command lines, in the files that hold them in real repositories: a compose
// file, a CI workflow and a deploy script. Every password is drawn afresh on each run.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PUNCT = '@_.+!';

/**
 * A password as people type them: letters and digits with some punctuation, 12 to 20 long. An
 * ellipsis (`...`, about one draw in 2,500) marks a stand-in by design (`-p ...`), so it is drawn
 * again.
 */
function freshPassword(): string {
  for (;;) {
    const length = 12 + Math.floor(Math.random() * 9);
    let value = randomChars(ALNUM, 1);
    while (value.length < length) value += randomChars(Math.random() < 0.15 ? PUNCT : ALNUM, 1);
    if (!value.includes('...')) return `${value}${randomChars('0123456789', 1)}`;
  }
}

/** A file's text built from fresh passwords, with the passwords it must hide. */
function build(template: (pw: () => string) => string): { text: string; secrets: string[] } {
  const secrets: string[] = [];
  const text = template(() => {
    const secret = freshPassword();
    secrets.push(secret);
    return secret;
  });
  return { text, secrets };
}

function expectAllHidden(text: string, secrets: readonly string[]): void {
  const result = createRedactor().redact(text);
  for (const secret of secrets)
    expect(result.text, `${secret} in\n${result.text}`).not.toContain(secret);
  expect(result.redactions.length).toBeGreaterThanOrEqual(1);
  const rules = new Set(result.redactions.map((redaction) => redaction.rule));
  expect(
    [...rules].every((rule) => ['command-line-credential', 'generic-secret'].includes(rule)),
  ).toBe(true);
  expect(rules.has('command-line-credential')).toBe(true);
  expect(result.text.split('\n').length).toBe(text.split('\n').length);
}

const COMPOSE = (pw: () => string): string => `services:
  db:
    image: mysql:8
    command: ["mysqld", "--default-authentication-plugin=mysql_native_password"]
    healthcheck:
      test: ["CMD", "mysqladmin", "ping", "-h", "localhost", "-uroot", "-p${pw()}"]
  mongo:
    image: mongo:7
    healthcheck:
      test: mongosh --quiet -u admin --password ${pw()} --eval "db.runCommand('ping')"
  cache:
    image: redis:7
    command: redis-server --appendonly yes --requirepass ${pw()}
    healthcheck:
      test: ["CMD", "redis-cli", "-a", "${pw()}", "ping"]
  backup:
    image: postgres:16
    entrypoint: ["sh", "-c", "PGPASSWORD=${pw()} pg_dump -h db -U app app > /out/app.sql"]
`;

const WORKFLOW = (pw: () => string): string => `name: deploy
on: [push]
jobs:
  release:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Log in to the registry
        run: echo ok && docker login -u ci -p ${pw()} registry.example.com
      - name: Load the schema
        run: |
          mysql -h 127.0.0.1 -u root \\
            --password=${pw()} app < schema.sql
          mongorestore --username admin --password "${pw()}" dump/
      - name: Sign
        run: >
          keytool -importkeystore -srckeystore release.p12 -srcstoretype PKCS12
          -destkeystore release.jks -deststorepass ${pw()} -srcstorepass ${pw()}
`;

const DEPLOY = (pw: () => string): string => `#!/usr/bin/env bash
set -euo pipefail
sshpass -p '${pw()}' ssh deploy@app.internal 'sudo systemctl restart app'
sshpass -p${pw()} scp build.tar.gz deploy@app.internal:/srv/
keytool -genkeypair -alias app -keystore app.jks -storepass ${pw()} -keypass ${pw()} -dname CN=app
openssl pkcs12 -export -in cert.pem -inkey key.pem -passout pass:${pw()} -out bundle.p12
openssl rsa -in enc.pem -passin 'pass:${pw()}' -out plain.pem
ldapsearch -x -H ldap://ldap.internal -D "cn=admin,dc=example,dc=org" -w ${pw()} -b dc=example,dc=org
htpasswd -bc /etc/nginx/.htpasswd admin ${pw()}
htpasswd -nbB monitor "${pw()}" >> users.htpasswd
smbclient //files.internal/share -U 'backup%${pw()}' -c 'put dump.sql'
mariadb -u app -p"${pw()}" app < seed.sql
PGPASSWORD=${pw()} psql -h db.internal -U app -c 'select 1'
mongodump --uri mongodb://db.internal --username admin --password=${pw()} --out /backup
redis-cli -h cache.internal -a ${pw()} --no-auth-warning FLUSHALL
`;

describe('command-line credentials', () => {
  it('hides every password in a docker-compose.yml (exec form, string form, sh -c)', () => {
    const { text, secrets } = build(COMPOSE);
    expect(secrets).toHaveLength(5);
    expectAllHidden(text, secrets);
  });

  it('hides every password in a workflow (run, block scalars, continued lines)', () => {
    const { text, secrets } = build(WORKFLOW);
    expect(secrets).toHaveLength(5);
    expectAllHidden(text, secrets);
  });

  it('hides every password in deploy.sh, one per tool', () => {
    const { text, secrets } = build(DEPLOY);
    expect(secrets).toHaveLength(14);
    expectAllHidden(text, secrets);
  });

  it('hides only the password of smbclient user%password, and keeps every line', () => {
    const password = freshPassword();
    const text = `smbclient //srv/share -U backupuser%${password}`;
    const result = createRedactor().redact(text);
    expect(result.text).toBe(
      'smbclient //srv/share -U backupuser%[REDACTED:command-line-credential:1]',
    );
  });

  it('hides a smbclient password that opens with what reads as a percent escape (%64, %7A)', () => {
    // `%64` is `d` in a URL; here the `%` parts user from password, so both readings are scanned.
    for (const lead of ['64', '7A', '2F', '3D', '41']) {
      const password = `${lead}${freshPassword()}`;
      const text = `smbclient //srv/share -U 'backup%${password}' -c 'put dump.sql'`;
      expect(createRedactor().redact(text).text, password).toBe(
        "smbclient //srv/share -U 'backup%[REDACTED:command-line-credential:1]' -c 'put dump.sql'",
      );
    }
  });

  it('hides the variables tools read their password from, whatever the password looks like', () => {
    // Short mixed-case runs between `_`, `.` and `@` read as a name to the generic rule; the
    // variable's name says the value is a password.
    const separated = (): string =>
      Array.from({ length: 4 }, () => randomChars(ALNUM, 2 + Math.floor(Math.random() * 3))).join(
        ['_', '.', '@'][Math.floor(Math.random() * 3)] ?? '_',
      );
    for (const name of ['PGPASSWORD', 'MYSQL_PWD', 'SSHPASS', 'REDISCLI_AUTH', 'RESTIC_PASSWORD']) {
      const secrets = [separated(), separated(), separated(), separated()];
      const text = [
        `${name}=${secrets[0]} psql -h db -U app`,
        `    entrypoint: ["sh", "-c", "${name}=${secrets[1]} pg_dump -h db app"]`,
        `export ${name}='${secrets[2]}'`,
        `  - ${name}=${secrets[3]}`,
      ].join('\n');
      const result = createRedactor().redact(text);
      for (const secret of secrets) expect(result.text, `${name} ${secret}`).not.toContain(secret);
    }
    for (const text of [
      'PGPASSWORD=$PGPASS psql',
      'PGPASSWORD= psql -h db',
      'MYSQL_PWD="${DB_PWD}" mysql',
    ]) {
      expectUntouched(text);
    }
  });

  it('hides variables named for a password that no list names, whatever the password (fresh names)', () => {
    // The name's last word says what the value is (`APP_DB_PASS`, `SMTP_PASSWORD`, `LDAP_BIND_PW`),
    // whatever comes before it: the prefix and the value are drawn afresh.
    const separated = (): string =>
      Array.from({ length: 4 }, () => randomChars(ALNUM, 1 + Math.floor(Math.random() * 3))).join(
        ['_', '.', '@', '.@', '#', '-'][Math.floor(Math.random() * 6)] ?? '_',
      ) + randomChars('0123456789', 1);
    const word = (): string =>
      randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 2 + Math.floor(Math.random() * 5));
    for (const last of ['PASSWORD', 'PASSWD', 'PASS', 'PWD', 'PW', 'PASSPHRASE']) {
      const name = Math.random() < 0.5 ? `${word()}_${last}` : `${word()}_${word()}_${last}`;
      const secrets = [
        separated(),
        separated(),
        separated(),
        separated(),
        `Summer#${2000 + Math.floor(Math.random() * 30)}`,
      ];
      const text = [
        `${name}=${secrets[0]}`,
        `export ${name}='${secrets[1]}'`,
        `      ${name}: ${secrets[2]}`,
        `      "${name}": "${secrets[3]}"`,
        `${name}=${secrets[4]}`,
      ].join('\n');
      const result = createRedactor().redact(text);
      for (const secret of secrets) expect(result.text, `${name} ${secret}`).not.toContain(secret);
    }
  });

  it('leaves the working directory, switches and code that only name a password variable', () => {
    for (const text of [
      '*   PWD: /Users/maciej,',
      'OLDPWD=/home/dev/src',
      'ALLOW_EMPTY_PASSWORD=true',
      'REQUIRE_PASS=yes',
      '  POSTGRES_PASSWORD: process.env.POSTGRES_PASSWORD,',
      '  DB_PASSWORD: config.db.password,',
      '  SMTP_PASS: getSmtpPassword(),',
      'readonly STENCIL_PASS_DEPTH_PASS: 0x0B96;',
      'APP_DB_PASS=${APP_DB_PASS:?required}',
      'BYPASS=1234567890ab',
      '| SMTP_PASS: | Password for SMTP |',
      'DB_PASSWORD: required, see below',
      'static final String DB_PASSWORD = "spring.datasource.password";',
      'DB_PASSWORD: str = "db.password"',
    ]) {
      expectUntouched(text);
    }
  });

  it('reads a line of many nested or repeated password variables once each (hostile minified line)', () => {
    // `PGPASSWORD=PGPASSWORD=…`: a value holding the name again is one value, not many; a line 700,000
    // characters long must not be read back over for each name on it. Counted, not timed: the
    // redactor finishes within the test's time limit, and every fresh password is hidden.
    const nested = 'PGPASSWORD='.repeat(60_000) + ' X_PASS='.repeat(60_000);
    expect(createRedactor().redact(nested).text.length).toBeGreaterThan(0);
    const secrets = Array.from(
      { length: 2_000 },
      () => `${randomChars(ALNUM, 5)}.@${randomChars(ALNUM, 5)}`,
    );
    const line = secrets.map((secret) => `PGPASSWORD=${secret}`).join(' ');
    const result = createRedactor().redact(line);
    expect(secrets.filter((secret) => result.text.includes(secret))).toEqual([]);
  });

  it('hides the passwords of a compose environment map, quoted or not, whatever they look like', () => {
    const password = (): string =>
      `${randomChars(ALNUM, 3)}_${randomChars(ALNUM, 2)}.@${randomChars(ALNUM, 3)}&${randomChars(ALNUM, 2)}`;
    const secrets = [password(), password(), password(), password()];
    const text = [
      'services:',
      '  db:',
      '    environment:',
      `      POSTGRES_PASSWORD: ${secrets[0]}`,
      `      MYSQL_ROOT_PASSWORD: "${secrets[1]}"`,
      `      'MARIADB_PASSWORD': '${secrets[2]}'  # set by ops`,
      `      MONGO_INITDB_ROOT_PASSWORD: ${secrets[3]} # rotated`,
      '      POSTGRES_PASSWORD_FILE: /run/secrets/pg',
      '      MYSQL_PASSWORD: ${DB_PASSWORD}',
      '',
    ].join('\n');
    const result = createRedactor().redact(text);
    for (const secret of secrets) expect(result.text, secret).not.toContain(secret);
    expect(result.text).toContain('# set by ops');
    expect(result.text).toContain('# rotated');
    expect(result.text).toContain('/run/secrets/pg');
    expect(result.text).toContain('${DB_PASSWORD}');
  });

  it('hides every password of a minified line of many map entries, each read within its own reach', () => {
    // A hostile one-line file: 5,000 entries, each value fresh; each entry's read is bounded, so the
    // line costs linear work, and no password on it is left in clear.
    const secrets = Array.from(
      { length: 5_000 },
      () => `${randomChars(ALNUM, 6)}_${randomChars(ALNUM, 6)}@x`,
    );
    const text = `{${secrets.map((secret, index) => `"POSTGRES_PASSWORD": "${secret}", "n${index}": 1`).join(', ')}}`;
    const result = createRedactor().redact(text);
    expect(secrets.filter((secret) => result.text.includes(secret))).toEqual([]);
    expect(result.text.split('\n')).toHaveLength(1);
  });

  it('stops at the string literal that holds the command', () => {
    const password = freshPassword();
    const text = `command: ["sh", "-c", "mysql -uroot -p${password}"]\nnext: "value"\n`;
    const result = createRedactor().redact(text);
    expect(result.text).toBe(
      'command: ["sh", "-c", "mysql -uroot -p[REDACTED:command-line-credential:1]"]\nnext: "value"\n',
    );
  });

  it('leaves prompts, variables, references to files and other tools alone', () => {
    for (const text of [
      'mysql -u root -p',
      'mysql -u root -p app',
      'mysql -uroot -p"$MYSQL_ROOT_PASSWORD" app',
      'mysql -uroot -p${DB_PASSWORD}',
      'docker login -u me -p "${{ secrets.DOCKER_PASSWORD }}" ghcr.io',
      'echo "$TOKEN" | docker login -u me --password-stdin',
      `docker run -p 8080:80 -e MODE=${randomChars(ALNUM, 16)} nginx`,
      'redis-cli -a "$REDIS_PASSWORD" ping',
      'openssl rsa -passin env:KEY_PASSPHRASE -in key.pem',
      'openssl rsa -passin file:/run/secrets/pass -in key.pem',
      'keytool -list -keystore a.jks -storepass:env STOREPASS',
      'sshpass -e ssh deploy@host',
      'sshpass -f /run/secrets/ssh ssh deploy@host',
      'htpasswd -c /etc/nginx/.htpasswd admin',
      'smbclient //srv/share -U backup',
      'ldapsearch -x -W -b dc=example,dc=org',
      'mongosh --password',
      'keytool -genkey -storepass changeit -keypass changeit',
      `grep -p ${randomChars(ALNUM, 16)} notes.txt`,
      'mysql -uroot -p<password> app',
    ]) {
      expectUntouched(text);
    }
  });
});
