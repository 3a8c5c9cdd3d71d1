import { describe, expect, it } from 'vitest';
import { compileRuleSet } from '../../../src/safety/redact/compile-rule-set.js';
import type { AnchoredRule, RedactionRule } from '../../../src/safety/redact/redaction-rule.js';
import { REDACTION_RULE_SET, REDACTION_RULES } from '../../../src/safety/redact/redaction-rules.js';
import { createRedactor, Redactor } from '../../../src/safety/redact/redactor.js';
import { createSecretFactory } from '../../support/secret-factory.js';

const f = createSecretFactory(99);

describe('Redactor numbering', () => {
  it('gives the same value the same placeholder, in one text and across texts', () => {
    const token = f.githubToken('p');
    const other = f.githubToken('p');
    const redactor = createRedactor();
    const first = redactor.redact(`a = "${token}"\nb = "${other}"\nc = "${token}"\n`);
    expect(first.text).toBe(
      'a = "[REDACTED:github-token:1]"\nb = "[REDACTED:github-token:2]"\nc = "[REDACTED:github-token:1]"\n',
    );
    const second = redactor.redact(`again: ${other} then ${token}`);
    expect(second.text).toBe('again: [REDACTED:github-token:2] then [REDACTED:github-token:1]');
  });

  it('numbers each rule from 1 and restarts with a new instance', () => {
    const redactor = new Redactor();
    const result = redactor.redact(`${f.githubToken('o')} ${f.npmToken()} ${f.githubToken('s')}`);
    expect(result.redactions.map((redaction) => redaction.placeholder)).toEqual([
      '[REDACTED:github-token:1]',
      '[REDACTED:npm-token:1]',
      '[REDACTED:github-token:2]',
    ]);
    expect(createRedactor().redact(f.npmToken()).text).toBe('[REDACTED:npm-token:1]');
  });
});

describe('Redactor output', () => {
  it('redacts several secrets on one line, in text order, each on that line', () => {
    const id = f.awsAccessKeyId();
    const secret = f.awsSecretAccessKey();
    const text = `line one\naws configure set aws_access_key_id ${id} && aws configure set aws_secret_access_key ${secret}\n`;
    const result = createRedactor().redact(text);
    expect(result.redactions).toEqual([
      { rule: 'aws-access-key-id', line: 2, placeholder: '[REDACTED:aws-access-key-id:1]' },
      { rule: 'aws-secret-access-key', line: 2, placeholder: '[REDACTED:aws-secret-access-key:1]' },
    ]);
    expect(result.text).toBe(
      'line one\naws configure set aws_access_key_id [REDACTED:aws-access-key-id:1] && aws configure set aws_secret_access_key [REDACTED:aws-secret-access-key:1]\n',
    );
  });

  it('reports lines after a multi-line secret at their original numbers', () => {
    const key = f.opensshPrivateKey();
    const token = f.stripeLive('s');
    const text = `one\n${key}\nmiddle\n${token}\n`;
    const result = createRedactor().redact(text);
    const tokenLine = text.split('\n').findIndex((line) => line === token) + 1;
    expect(result.redactions.map((redaction) => [redaction.rule, redaction.line])).toEqual([
      ['openssh-private-key', 2],
      ['stripe-live-key', tokenLine],
    ]);
    expect(result.text.split('\n')[tokenLine - 1]).toBe('[REDACTED:stripe-live-key:1]');
  });

  it('keeps the line count of CRLF text', () => {
    const key = f.rsaPrivateKey().replaceAll('\n', '\r\n');
    const text = `a\r\n${key}\r\nb\r\n`;
    const result = createRedactor().redact(text);
    expect(result.text.split('\n').length).toBe(text.split('\n').length);
    expect(result.text.endsWith('b\r\n')).toBe(true);
  });

  it('returns text without secrets unchanged, and redacted text stays as it is', () => {
    const plain = 'const token = getToken();\nexport default token;\n';
    expect(createRedactor().redact(plain)).toEqual({ text: plain, redactions: [] });
    const once = createRedactor().redact(
      `TOKEN=${f.githubToken('u')}\npassword: ${f.password()}\n`,
    );
    expect(once.redactions).toHaveLength(2);
    expect(createRedactor().redact(once.text)).toEqual({ text: once.text, redactions: [] });
  });

  it('never puts a value in its redaction records', () => {
    const value = f.anthropicKey();
    const result = createRedactor().redact(`key = "${value}"`);
    expect(JSON.stringify(result.redactions)).not.toContain(value.slice(10));
  });

  it('does not throw on hostile or odd input and keeps its line count', () => {
    const megabyte = 1 << 20;
    const fill = (unit: string): string =>
      unit.repeat(Math.ceil(megabyte / unit.length)).slice(0, megabyte);
    const inputs = [
      '',
      '\ud800token = "\udc00abc\ud800"\n\udfff',
      fill('\0password=\0'),
      fill('-----BEGIN RSA PRIVATE KEY-----'),
      `-----BEGIN PRIVATE KEY-----\n${fill('MIIEowIBAAKCAQEAwYSiPeJLSi6k8J4\n')}`,
      fill('"token": "abc'),
      fill('twilio '),
      fill('a://b:c@'),
      `eyJ${fill('A')}`,
      fill(f.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 4096)),
    ];
    for (const input of inputs) {
      const result = createRedactor().redact(input);
      expect(result.text.split('\n').length).toBe(input.split('\n').length);
    }
  });
});

describe('REDACTION_RULES', () => {
  it('lists every rule with a kebab-case id, a description and lowercase keywords', () => {
    expect(REDACTION_RULES.map((rule) => rule.id)).toEqual(
      REDACTION_RULE_SET.map((rule) => rule.id),
    );
    expect(new Set(REDACTION_RULES.map((rule) => rule.id)).size).toBe(REDACTION_RULES.length);
    for (const rule of REDACTION_RULES) {
      expect(rule.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(rule.description.length).toBeGreaterThan(10);
      expect(rule.keywords.length).toBeGreaterThan(0);
      for (const keyword of rule.keywords) expect(keyword).toBe(keyword.toLowerCase());
    }
  });

  it('covers every family the spec requires', () => {
    expect(REDACTION_RULES.map((rule) => rule.id)).toEqual(
      expect.arrayContaining([
        'pem-private-key',
        'openssh-private-key',
        'pgp-private-key',
        'gcp-service-account',
        'aws-access-key-id',
        'aws-secret-access-key',
        'github-token',
        'gitlab-token',
        'slack-token',
        'slack-webhook-url',
        'stripe-live-key',
        'anthropic-api-key',
        'openai-api-key',
        'google-api-key',
        'azure-storage-account-key',
        'npm-token',
        'pypi-token',
        'twilio-key',
        'sendgrid-api-key',
        'mailgun-api-key',
        'jwt',
        'url-credentials',
        'generic-secret',
      ]),
    );
  });
});

describe('compileRuleSet', () => {
  const rule = (id: string, keywords: string[]): AnchoredRule => ({
    id,
    description: 'test rule',
    keywords,
    scope: 'anchored',
    findAt: () => undefined,
  });

  it('refuses malformed rule sets', () => {
    expect(() => compileRuleSet([rule('Not-Kebab', ['x'])])).toThrow(/kebab-case/);
    expect(() => compileRuleSet([rule('a', ['x']), rule('a', ['y'])])).toThrow(/twice/);
    expect(() => compileRuleSet([rule('a', ['Upper'])])).toThrow(/lowercase/);
    expect(() => compileRuleSet([rule('a', [])])).toThrow(/no keyword/);
  });

  it('runs a custom rule only where its keyword is, case-insensitively', () => {
    const seen: number[] = [];
    const custom: RedactionRule = {
      ...rule('marker', ['zq-']),
      findAt: (text, at) => {
        seen.push(at);
        return { start: at, end: at + 5 };
      },
    };
    const result = new Redactor({ rules: [custom] }).redact('abc ZQ-12 zq-34 zq');
    expect(seen).toEqual([4, 10]);
    expect(result.text).toBe('abc [REDACTED:marker:1] [REDACTED:marker:2] zq');
  });
});

describe('a value found once is hidden wherever it recurs in the text', () => {
  it('redacts the bare copies of a secret recognised by its assignment', () => {
    const value = f.genericSecret();
    const text = `api_token = '${value}' | '${value}'\nlog: sent ${value} upstream\n`;
    const result = createRedactor().redact(text);
    expect(result.text).not.toContain(value);
    expect(result.text).toBe(
      "api_token = '[REDACTED:generic-secret:1]' | '[REDACTED:generic-secret:1]'\nlog: sent [REDACTED:generic-secret:1] upstream\n",
    );
    expect(result.redactions.map((redaction) => redaction.line)).toEqual([1, 1, 2]);
  });

  it('the control: the same random value twice with no secret context stays', () => {
    const value = f.genericSecret();
    const text = `id '${value}' | '${value}'\n`;
    expect(createRedactor().redact(text).text).toBe(text);
  });
});
