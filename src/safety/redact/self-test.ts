import {
  buildCanarySecrets,
  buildGluedCanarySecrets,
  type CanarySecret,
} from './canary-secrets.js';
import type { RedactionRule } from './redaction-rule.js';
import { REDACTION_RULE_SET } from './redaction-rules.js';
import { Redactor } from './redactor.js';
import { RedactorSelfTestError } from './redactor-self-test-error.js';

export interface RedactorSelfTestOptions {
  /** The rules under test; the default is the built-in set. */
  rules?: readonly RedactionRule[];
  /** The canaries to run; the default is one per rule, plus glued forms of the tokens. */
  canaries?: readonly CanarySecret[];
}

/**
 * Runs a fixed canary secret per rule, and each token that names itself glued on either side,
 * through a fresh redactor and throws RedactorSelfTestError if any survives, is redacted under
 * another rule, or a rule has no canary.
 */
export function runRedactorSelfTest(options: RedactorSelfTestOptions = {}): void {
  const rules = options.rules ?? REDACTION_RULE_SET;
  const canaries = options.canaries ?? [...buildCanarySecrets(), ...buildGluedCanarySecrets(rules)];
  const redactor = new Redactor(options.rules === undefined ? {} : { rules });
  for (const rule of rules) {
    if (!canaries.some((canary) => canary.rule === rule.id)) {
      throw new RedactorSelfTestError(rule.id, 'has no canary');
    }
  }
  for (const canary of canaries) {
    const result = redactor.redact(canary.text);
    if (result.text.includes(canary.value)) {
      throw new RedactorSelfTestError(canary.rule, 'let its canary through');
    }
    if (!result.redactions.some((redaction) => redaction.rule === canary.rule)) {
      throw new RedactorSelfTestError(canary.rule, 'did not catch its canary (another rule did)');
    }
  }
}
