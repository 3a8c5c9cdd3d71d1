import { describe, expect, it } from 'vitest';
import { EXIT, OyError } from '../../../src/shared/errors.js';
import { buildCanarySecrets } from '../../../src/safety/redact/canary-secrets.js';
import type { RedactionRule } from '../../../src/safety/redact/redaction-rule.js';
import { REDACTION_RULE_SET } from '../../../src/safety/redact/redaction-rules.js';
import { RedactorSelfTestError } from '../../../src/safety/redact/redactor-self-test-error.js';
import { runRedactorSelfTest } from '../../../src/safety/redact/self-test.js';

/** Runs the self-test and returns the error it throws, or undefined. */
function selfTestError(options: Parameters<typeof runRedactorSelfTest>[0]): unknown {
  try {
    runRedactorSelfTest(options);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The built-in rule set with one rule's matcher replaced by one that finds nothing. */
function withBlindRule(id: string): RedactionRule[] {
  return REDACTION_RULE_SET.map((rule): RedactionRule => {
    if (rule.id !== id) return rule;
    return rule.scope === 'anchored'
      ? { ...rule, findAt: () => undefined }
      : { ...rule, findIn: () => [] };
  });
}

describe('runRedactorSelfTest', () => {
  it('passes with the built-in rules', () => {
    expect(() => runRedactorSelfTest()).not.toThrow();
  });

  it('has exactly one canary per built-in rule, none of them a literal in the source', () => {
    const canaries = buildCanarySecrets();
    expect(canaries.map((canary) => canary.rule).sort()).toEqual(
      REDACTION_RULE_SET.map((rule) => rule.id).sort(),
    );
    for (const canary of canaries) expect(canary.text).toContain(canary.value);
    expect(buildCanarySecrets()).toEqual(canaries);
  });

  it.each(['github-token', 'pem-private-key', 'twilio-key', 'generic-secret', 'url-credentials'])(
    'fails, naming the rule, when %s is broken',
    (id) => {
      const error = selfTestError({ rules: withBlindRule(id) });
      expect(error).toBeInstanceOf(RedactorSelfTestError);
      expect(error).toBeInstanceOf(OyError);
      expect((error as RedactorSelfTestError).exitCode).toBe(EXIT.runtime);
      expect((error as RedactorSelfTestError).ruleId).toBe(id);
      expect((error as Error).message).toContain(id);
    },
  );

  it('fails when a canary survives because its rule is missing from the set', () => {
    const rules = REDACTION_RULE_SET.filter((rule) => rule.id !== 'stripe-live-key');
    const error = selfTestError({ rules });
    expect(error).toBeInstanceOf(RedactorSelfTestError);
    expect((error as Error).message).toBe(
      'redactor self-test failed: rule stripe-live-key let its canary through',
    );
  });

  it('fails when a rule has no canary', () => {
    const canaries = buildCanarySecrets().filter((canary) => canary.rule !== 'jwt');
    const error = selfTestError({ canaries });
    expect((error as RedactorSelfTestError).ruleId).toBe('jwt');
    expect((error as Error).message).toContain('has no canary');
  });
});
