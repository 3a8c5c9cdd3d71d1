import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { expectUntouched } from '../../support/expect-redaction.js';
import { randomChars } from '../../support/vendor-token-samples.js';

// Passwords set under a variable's name in the places deployments set them: a Kubernetes or ECS
// `env` entry (`name:` then `value:`), PowerShell's `$env:` drive, and a command's `NAME=value`
// word (Dockerfile `ENV`/`ARG`, compose lists, systemd, `docker run -e`, `kubectl --from-literal`).
// Values are drawn fresh each run in the shapes people type.
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const WORDS = ['river', 'maple', 'tiger', 'garden', 'winter', 'falcon', 'orange', 'silver'];

const word = (): string => WORDS[randomInt(WORDS.length)] ?? 'river';
const capital = (text: string): string => `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;

const SHAPES: Array<[string, () => string]> = [
  ['short mixed run', () => randomChars(UPPER + LOWER + DIGITS, 8)],
  [
    'short letters',
    () => `${randomChars(LOWER, 3)}${randomChars(UPPER, 2)}${randomChars(LOWER, 3)}`,
  ],
  [
    'word and year',
    () =>
      `${capital(word())}${['', '#', '@', '_', '.'][randomInt(5)] ?? ''}${2000 + randomInt(30)}`,
  ],
  ['words and a number', () => `${word()}${word()}${randomInt(10, 100)}`],
  ['letters and digits', () => `${randomChars(LOWER, 6)}${randomChars(DIGITS, 3)}`],
  ['hex', () => randomChars('0123456789abcdef', 32)],
];
const NAMES = ['DB_PASSWORD', 'POSTGRES_PASSWORD', 'APP_DB_PASS', 'LDAP_BIND_PW', 'SMTP_PWD'];
const name = (): string => NAMES[randomInt(NAMES.length)] ?? 'DB_PASSWORD';

const FORMS: Array<[string, (key: string, value: string) => string]> = [
  [
    'Kubernetes env entry',
    (k, v) => `        env:\n          - name: ${k}\n            value: ${v}\n`,
  ],
  ['Kubernetes env entry, quoted', (k, v) => `      - name: "${k}"\n        value: "${v}"\n`],
  ['Kubernetes env entry, commented', (k, v) => `  - name: ${k} # db\n    value: '${v}'\n`],
  ['ECS task definition', (k, v) => `{"environment": [{"name": "${k}", "value": "${v}"}]}`],
  ['PowerShell', (k, v) => `$env:${k} = "${v}"\n`],
  ['Dockerfile ENV', (k, v) => `FROM postgres:16\nENV ${k}=${v}\n`],
  ['Dockerfile ARG', (k, v) => `ARG ${k}=${v}\n`],
  ['compose list', (k, v) => `    environment:\n      - ${k}=${v}\n`],
  ['systemd', (k, v) => `[Service]\nEnvironment=${k}=${v}\n`],
  ['docker run -e', (k, v) => `docker run -d -e ${k}=${v} postgres:16\n`],
  ['docker run --env', (k, v) => `docker run --env ${k}=${v} -p 5432:5432 postgres\n`],
  ['kubectl', (k, v) => `kubectl create secret generic db --from-literal=${k}=${v}\n`],
  ['cmd set', (k, v) => `set ${k}=${v}\n`],
];

describe('generic-secret: passwords under a variable name where deployments set them', () => {
  it.each(FORMS)('%s: every typed shape is hidden (fresh values)', (_form, build) => {
    const kept: string[] = [];
    for (const [shape, draw] of SHAPES) {
      for (let round = 0; round < 8; round += 1) {
        const value = draw();
        const text = build(name(), value);
        const result = createRedactor().redact(text);
        if (result.text.includes(value)) kept.push(`${shape}: ${text}`);
        expect(result.text.split('\n')).toHaveLength(text.split('\n').length);
      }
    }
    expect(kept).toEqual([]);
  });

  it('reads the value field of a named entry only, and leaves references and code alone', () => {
    const value = randomChars(UPPER + LOWER + DIGITS, 12);
    const text = `- name: DB_PASSWORD\n  value: ${value}\n- name: DB_USER\n  value: app\n`;
    expect(createRedactor().redact(text).text).toBe(
      '- name: DB_PASSWORD\n  value: [REDACTED:generic-secret:1]\n- name: DB_USER\n  value: app\n',
    );
    for (const untouched of [
      '- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n',
      '- name: DB_PASSWORD\n  value: ""\n',
      '- name: DB_PASSWORD\n  value: "${DB_PASSWORD}"\n',
      '{"name": "DB_PASSWORD", "value": "{{ .Values.db.password }}"}',
      '- name: DB_PASSWORD\n- name: DB_USER\n  value: app\n',
      '$env:DB_PASSWORD = $secret\n',
      'var DB_PASSWORD=e.password,x=1;',
      'var DB_PASSWORD=process.env.DB_PASSWORD;',
      'ENV DB_PASSWORD=config.db.password\n',
      'RUN PGPASSWORD=$(cat /run/secrets/pg) psql -h db\n',
      'docker run -e POSTGRES_PASSWORD="$POSTGRES_PASSWORD" postgres\n',
      'docker run -e ALLOW_EMPTY_PASSWORD=yes bitnami/redis\n',
      'urn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-password\n',
    ]) {
      expectUntouched(untouched);
    }
  });

  it('hides every password of a 1 MB line of flow-mapped name/value pairs', () => {
    // A hostile minified manifest: each pair's comment and value are read within a bounded reach.
    const secrets = Array.from({ length: 8_000 }, () => randomChars(UPPER + LOWER + DIGITS, 12));
    const text = `[${secrets.map((secret) => `{"name": "APP_DB_PASS", "value": "${secret}"}`).join(',')}]`;
    const result = createRedactor().redact(text);
    expect(secrets.filter((secret) => result.text.includes(secret))).toEqual([]);
    const storm = `${',name:DB_PASSWORD#'.repeat(60_000)}\n`;
    expect(createRedactor().redact(storm).text).toBe(storm);
  });
});
