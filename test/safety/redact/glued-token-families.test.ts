import { Buffer } from 'node:buffer';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildCanarySecrets,
  buildGluedCanarySecrets,
  type CanarySecret,
} from '../../../src/safety/redact/canary-secrets.js';
import { findSecretSpans } from '../../../src/safety/redact/find-secret-spans.js';
import type { RedactionRule } from '../../../src/safety/redact/redaction-rule.js';
import {
  DEFAULT_RULE_SET,
  REDACTION_RULE_SET,
} from '../../../src/safety/redact/redaction-rules.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { runRedactorSelfTest } from '../../../src/safety/redact/self-test.js';
import { randomChars } from '../../support/vendor-token-samples.js';

// Every rule whose secret names itself, enumerated from the rule table, with canaries drawn afresh
// on every run: glued on either side to each kind of neighbour, and base64-encoded with glue.
const FAMILIES = REDACTION_RULE_SET.filter((rule) => rule.namesItself).map((rule) => rule.id);
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE64 = `${LETTERS}0123456789+/`;
// What an attacker, or a careless concatenation, glues to a token.
const GLUES: ReadonlyArray<[name: string, make: () => string]> = [
  ['a letter', () => randomChars(LETTERS, 1)],
  ['a digit', () => randomChars('0123456789', 1)],
  ['a word', () => `${randomChars(LETTERS, 3)}_${randomChars(LETTERS, 2)}9`],
  ['_', () => '_'],
  ['-', () => '-'],
  ['/', () => '/'],
  ['+', () => '+'],
  ['=', () => '='],
  ['a base64 run', () => randomChars(BASE64, 24)],
];
// Families not looked for inside base64, each for a reason: a password hash is not a credential
// (it ranks low); the base64 rule's own secret is base64 already; an Azure AD secret is told only
// by `Q~`, two characters, too few to look for in base64.
const NOT_IN_BASE64 = new Set(['password-hash', 'base64-encoded-secret', 'azure-ad-client-secret']);
const line = (value: string): string => `const blob = "${value}";\n`;
let cases = 0;
afterAll(() => console.log(`glued token families: ${FAMILIES.length} families, ${cases} cases`));

/** A fresh canary of `rule` and the part of it the rule hides when it stands alone. */
function freshCanary(rule: string): { canary: CanarySecret; secret: string } {
  // The value checks refuse about one random draw in a thousand for their own reasons (a keyboard
  // run at an edge, letters that read as words); those are not what this file tests.
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const canary = buildCanarySecrets(randomChars).find((candidate) => candidate.rule === rule);
    if (canary === undefined) throw new Error(`no canary for ${rule}`);
    const alone = line(canary.value);
    const own = findSecretSpans(alone, DEFAULT_RULE_SET).find((span) => span.ruleId === rule);
    if (own !== undefined) return { canary, secret: alone.slice(own.start, own.end) };
  }
  throw new Error(`${rule} did not hide its own canary alone on a line in 20 draws`);
}

/** The pieces of `secret` (start, middle, end) still in clear in `redacted`, placeholders aside. */
function leakedPieces(redacted: string, secret: string): string[] {
  const text = redacted.replace(/\[REDACTED:[a-z0-9-]+:\d+\]/g, '');
  const middle = Math.floor(secret.length / 2) - 4;
  return [secret.slice(0, 8), secret.slice(middle, middle + 8), secret.slice(-8)].filter((piece) =>
    text.includes(piece),
  );
}

describe('the token families', () => {
  it('are exactly the rules that hide their own canary alone on a line, with no word around it', () => {
    const alone = REDACTION_RULE_SET.filter((rule) => {
      const canary = buildCanarySecrets(randomChars).find((c) => c.rule === rule.id);
      if (canary === undefined) return false;
      const spans = findSecretSpans(line(canary.value), DEFAULT_RULE_SET);
      return spans.some((span) => span.ruleId === rule.id);
    }).map((rule) => rule.id);
    // A draw a value check refuses (about one in a thousand) can only drop a family from `alone`.
    for (const rule of alone) expect(FAMILIES, rule).toContain(rule);
    expect(alone.length).toBeGreaterThanOrEqual(FAMILIES.length - 2);
    expect(FAMILIES.length).toBeGreaterThan(90);
    cases += 1;
  });
});

describe.each(FAMILIES)('%s', (rule) => {
  it('is hidden glued on either side to any neighbour', () => {
    const leaks: string[] = [];
    for (const [name, glue] of GLUES) {
      for (const side of ['before', 'after'] as const) {
        const { canary, secret } = freshCanary(rule);
        const g = glue();
        const text = line(side === 'before' ? `${g}${canary.value}` : `${canary.value}${g}`);
        const result = createRedactor().redact(text);
        cases += 1;
        if (leakedPieces(result.text, secret).length > 0) leaks.push(`${name} ${side}: ${text}`);
        expect(result.text.split('\n').length).toBe(text.split('\n').length);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe.each(FAMILIES.filter((rule) => !NOT_IN_BASE64.has(rule)))('%s', (rule) => {
  it('is hidden base64-encoded, alone and glued', () => {
    const leaks: string[] = [];
    for (const form of ['alone', 'glued before', 'glued after', 'URL-safe'] as const) {
      const { canary } = freshCanary(rule);
      const encoded = Buffer.from(canary.value).toString(
        form === 'URL-safe' ? 'base64url' : 'base64',
      );
      const value =
        form === 'glued before' ? `X${encoded}` : form === 'glued after' ? `${encoded}X` : encoded;
      const result = createRedactor().redact(`TOKEN_B64: ${value}\n`);
      cases += 1;
      if (leakedPieces(result.text, encoded).length > 0) leaks.push(`${form}: ${value}`);
    }
    expect(leaks).toEqual([]);
  });
});

describe('tokens inside base64', () => {
  const botToken = (digits: number): string =>
    `${randomChars('123456789', 1)}${randomChars('0123456789', digits - 1)}:AA${randomChars(`${LETTERS}0123456789_-`, 33)}`;

  it.each([8, 9, 10])(
    'a Telegram bot token with a %d-digit id, at every byte offset of the encoded data',
    (digits) => {
      for (const prefix of ['', 'x', 'xy', '{"bot":"', 'TELEGRAM_TOKEN=']) {
        const token = botToken(digits);
        const encoded = Buffer.from(`${prefix}${token}\n`).toString('base64');
        const result = createRedactor().redact(`data:\n  config: ${encoded}\n`);
        cases += 1;
        expect(result.text, `${prefix}${token}`).not.toContain(encoded.slice(8, 24));
        expect(result.redactions.map((r) => r.rule)).toEqual(['base64-encoded-secret']);
      }
    },
  );

  it('a token in the middle of an encoded config file, wrapped at 76', () => {
    const { canary } = freshCanary('github-token');
    const config = `{\n  "registry": "https://npm.pkg.github.com",\n  "user": "deploy",\n  "token": "${canary.value}"\n}\n`;
    const encoded = Buffer.from(config)
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
    const text = `apiVersion: v1\nkind: ConfigMap\nbinaryData:\n  npmrc: |\n${encoded.replace(/^/gm, '    ')}\n`;
    const result = createRedactor().redact(text);
    cases += 1;
    expect(result.redactions.map((r) => r.rule)).toContain('base64-encoded-secret');
    expect(result.text.split('\n').length).toBe(text.split('\n').length);
    // The line that holds the token's bytes is gone.
    const flat = Buffer.from(config).toString('base64');
    const at = Math.floor((config.indexOf(canary.value) * 4) / 3);
    expect(result.text.replace(/\s+/g, '')).not.toContain(flat.slice(at + 4, at + 36));
  });
});

describe('the start-up self-test', () => {
  it('holds a glued-before and a glued-after canary of every family, and passes', () => {
    const glued = buildGluedCanarySecrets(REDACTION_RULE_SET);
    for (const rule of FAMILIES) {
      const forms = glued.filter((canary) => canary.rule === rule);
      expect(
        forms.some((c) => c.text.includes(`X${c.value}`)),
        rule,
      ).toBe(true);
      expect(
        forms.some((c) => c.text.includes(`${c.value}X`)),
        rule,
      ).toBe(true);
    }
    expect(() => runRedactorSelfTest()).not.toThrow();
    cases += 1;
  });

  it.each(['aws-access-key-id', 'telegram-bot-token', 'databricks-token', 'alibaba-access-key-id'])(
    'fails when %s gives up on glue, as it did before (a token had to end its run)',
    (id) => {
      // The self-test glues `X`; the rule taken as it was refuses a token with it glued after.
      const rules = REDACTION_RULE_SET.map((rule): RedactionRule => {
        if (rule.id !== id || rule.scope !== 'anchored') return rule;
        return {
          ...rule,
          findAt: (text, at) => {
            const range = rule.findAt(text, at);
            return range !== undefined && text.charAt(range.end - 1) === 'X' ? undefined : range;
          },
        };
      });
      expect(() => runRedactorSelfTest({ rules })).toThrow(new RegExp(`rule ${id} `));
      cases += 1;
    },
  );
});
