import { afterAll, describe, expect, it } from 'vitest';
import { buildGluedCanarySecrets } from '../../../src/safety/redact/canary-secrets.js';
import { isWordCharacter } from '../../../src/safety/redact/define-token-rule.js';
import type { RedactionRule } from '../../../src/safety/redact/redaction-rule.js';
import { REDACTION_RULE_SET } from '../../../src/safety/redact/redaction-rules.js';
import { VENDOR_TOKEN_TABLE } from '../../../src/safety/redact/rules/vendor-token-table.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { runRedactorSelfTest } from '../../../src/safety/redact/self-test.js';
import { createSecretFactory } from '../../support/secret-factory.js';
import { drawVendorTokenSamples } from '../../support/vendor-token-samples.js';

// Seeded from the clock: new tokens every run, printed so a failure can be replayed.
const seed = Date.now() % 1_000_000_007;
const f = createSecretFactory(seed);
let cases = 0;
afterAll(() => console.log(`glued tokens: ${cases} cases (seed ${seed})`));

/** One generated token per token family, with the line it sits in. */
const FAMILIES: Array<[rule: string, make: () => string, line?: (token: string) => string]> = [
  ['aws-access-key-id', () => f.awsAccessKeyId()],
  ['aws-access-key-id', () => f.awsSessionKeyId()],
  ['google-api-key', () => f.googleApiKey()],
  ['github-token', () => f.githubToken('p')],
  ['github-token', () => f.githubToken('o')],
  ['github-token', () => f.githubToken('u')],
  ['github-token', () => f.githubToken('s')],
  ['github-token', () => f.githubToken('r')],
  ['github-token', () => f.githubFineGrained()],
  ['gitlab-token', () => f.gitlabToken()],
  ['npm-token', () => f.npmToken()],
  ['pypi-token', () => f.pypiToken()],
  ['slack-token', () => f.slackBotToken()],
  ['slack-token', () => f.slackUserToken()],
  ['slack-webhook-url', () => f.slackWebhook().slice('https://'.length)],
  ['stripe-live-key', () => f.stripeLive('s')],
  ['stripe-live-key', () => f.stripeLive('r')],
  ['anthropic-api-key', () => f.anthropicKey()],
  ['openai-api-key', () => f.openaiProjectKey()],
  ['openai-api-key', () => f.openaiLegacyKey()],
  ['sendgrid-api-key', () => f.sendgridKey()],
  ['jwt', () => f.jwt()],
  [
    'twilio-key',
    () => f.twilioApiKeySid(),
    (token) => `const client = twilio(sid);\nkey_sid = ${token}`,
  ],
  ['twilio-key', () => f.twilioAccountSid(), (token) => `twilio account: ${token}`],
];
// Characters glued after a token are taken with it, whatever its prefix.
const GLUED_AFTER_FAMILIES: Array<[rule: string, make: () => string]> = [
  ['github-token', () => f.githubToken('p')],
  ['gitlab-token', () => f.gitlabToken()],
  ['npm-token', () => f.npmToken()],
  ['slack-token', () => f.slackBotToken()],
  ['stripe-live-key', () => f.stripeLive('s')],
  ['anthropic-api-key', () => f.anthropicKey()],
  ['sendgrid-api-key', () => f.sendgridKey()],
  ['mailgun-api-key', () => f.mailgunKey()],
  ['aws-access-key-id', () => f.awsAccessKeyId()],
  ['google-api-key', () => f.googleApiKey()],
  ...drawVendorTokenSamples().map(({ rule, value }): [string, () => string] => [rule, () => value]),
];
// Fixed-length bodies: what is glued after them is not the body (`vipul-<64 hex>` is not Pulumi's).
const FIXED_LENGTH_FAMILIES: Array<[rule: string, make: () => string]> = [
  ['npm-token', () => f.npmToken()],
  ['mailgun-api-key', () => f.mailgunKey()],
  ['pulumi-token', () => j('pu', 'l-', f.hex(40))],
  ['shopify-token', () => j('shp', 'at_', f.hex(32))],
  ['digitalocean-token', () => j('do', 'p_v1_', f.hex(64))],
];
const j = (...parts: string[]): string => parts.join('');
// Word characters an attacker (or a `replace`) can glue on: letters, digits, a word.
const GLUES = ['X', 'a', '7', 'abc', 'foo_bar9'];

/** The built-in rules as they were: a token after a letter or digit was not one. */
function rulesNeedingWordStart(): RedactionRule[] {
  return REDACTION_RULE_SET.map((rule): RedactionRule => {
    if (rule.scope !== 'anchored') return rule;
    return {
      ...rule,
      findAt: (text, at) =>
        at > 0 && isWordCharacter(text.charCodeAt(at - 1)) ? undefined : rule.findAt(text, at),
    };
  });
}

describe('tokens glued to a preceding word character', () => {
  it.each(
    FAMILIES.map(([rule, make, line], index) => [`${rule} #${index}`, rule, make, line] as const),
  )('%s is redacted whole with any glue before it', (_name, rule, make, line) => {
    for (const glue of GLUES) {
      const token = make();
      const text = line === undefined ? `value = "${glue}${token}";` : line(`${glue}${token}`);
      const result = createRedactor().redact(text);
      cases += 1;
      // No part of the token survives (its first 8 characters are the prefix and a little more).
      expect(result.text).not.toContain(token.slice(0, 8));
      expect(result.text).not.toContain(token.slice(-8));
      expect(result.text).toContain(`${glue}[REDACTED:${rule}:1]`);
      expect(result.redactions.map((redaction) => redaction.rule)).toEqual([rule]);
    }
  });

  it('control: with the old word-start check, glued tokens of the anchored families leak', () => {
    const before = createRedactor({ rules: rulesNeedingWordStart() });
    for (const [rule, make, line] of FAMILIES) {
      if (rule === 'twilio-key' || rule === 'slack-webhook-url') continue;
      const token = make();
      const text = line === undefined ? `value = "X${token}";` : line(`X${token}`);
      cases += 1;
      expect(before.redact(text).text, rule).toContain(token);
    }
  });

  it('the start-up self-test holds a glued canary for every token family and passes', () => {
    const glued = buildGluedCanarySecrets(REDACTION_RULE_SET);
    const before = new Set(glued.filter((c) => c.text.includes(`X${c.value}`)).map((c) => c.rule));
    const after = new Set(glued.filter((c) => c.text.includes(`${c.value}X`)).map((c) => c.rule));
    for (const [rule] of FAMILIES) expect(before, rule).toContain(rule);
    // Mechanically, from the rule table: every rule whose secret names itself, both ways.
    for (const rule of REDACTION_RULE_SET.filter((candidate) => candidate.namesItself)) {
      expect(before, rule.id).toContain(rule.id);
      expect(after, rule.id).toContain(rule.id);
    }
    for (const row of VENDOR_TOKEN_TABLE) expect(after, row.id).toContain(row.id);
    expect(() => runRedactorSelfTest()).not.toThrow();
    cases += 1;
  });

  it('the self-test fails when glued tokens are missed', () => {
    expect(() => runRedactorSelfTest({ rules: rulesNeedingWordStart() })).toThrow(
      /let its canary through/,
    );
    cases += 1;
  });

  it.each(GLUED_AFTER_FAMILIES.map(([rule, make]) => [rule, make] as const))(
    '%s takes word characters glued after it',
    (rule, make) => {
      for (const glue of GLUES) {
        const token = make();
        cases += 1;
        const after = createRedactor().redact(`value = "${token}${glue}";`);
        expect(after.text).toMatch(new RegExp(`\\[REDACTED:${rule}:1\\]";$`));
        expect(after.text).not.toContain(token.slice(-8));
      }
    },
  );

  it.each(FIXED_LENGTH_FAMILIES.map(([rule, make]) => [rule, make] as const))(
    '%s in the middle of a longer run (glued on both sides) is letters of something else',
    (rule, make) => {
      for (const glue of GLUES) {
        const token = make();
        cases += 1;
        const both = createRedactor().redact(`value = "${glue}${token}${glue}-more";`);
        expect(both.redactions.filter((redaction) => redaction.rule === rule)).toEqual([]);
      }
    },
  );

  it('control: without the glued tail, a suffix glued after a fixed-length token leaks it', () => {
    const token = f.npmToken();
    const withoutTail = REDACTION_RULE_SET.filter((rule) => rule.id !== 'npm-token');
    cases += 1;
    expect(createRedactor({ rules: withoutTail }).redact(`value = "${token}X";`).text).toContain(
      token,
    );
  });

  it('words and identifiers that merely contain a prefix are left alone', () => {
    for (const text of [
      'const taskRunner = "task-runner"; const askSomething = 1;',
      'const ASIA_PACIFIC_REGIONS = [];',
      'monkey-patch the module; hotkey-binding',
      'if (msg.type === "x") return null; // MSG.handler',
      `blob = X${f.base62(12)}`,
    ]) {
      cases += 1;
      expect(createRedactor().redact(text).redactions).toEqual([]);
    }
  });
});
