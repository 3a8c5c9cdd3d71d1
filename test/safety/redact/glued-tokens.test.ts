import { afterAll, describe, expect, it } from 'vitest';
import { buildGluedCanarySecrets } from '../../../src/safety/redact/canary-secrets.js';
import { isWordCharacter } from '../../../src/safety/redact/define-token-rule.js';
import type { RedactionRule } from '../../../src/safety/redact/redaction-rule.js';
import { REDACTION_RULE_SET } from '../../../src/safety/redact/redaction-rules.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { runRedactorSelfTest } from '../../../src/safety/redact/self-test.js';
import { createSecretFactory } from '../../support/secret-factory.js';

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
    const glued = buildGluedCanarySecrets();
    const families = new Set(FAMILIES.map(([rule]) => rule));
    expect(new Set(glued.map((canary) => canary.rule))).toEqual(families);
    for (const canary of glued) expect(canary.text).toContain(`X${canary.value}`);
    expect(() => runRedactorSelfTest()).not.toThrow();
    cases += 1;
  });

  it('the self-test fails when glued tokens are missed', () => {
    expect(() => runRedactorSelfTest({ rules: rulesNeedingWordStart() })).toThrow(
      /let its canary through/,
    );
    cases += 1;
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
