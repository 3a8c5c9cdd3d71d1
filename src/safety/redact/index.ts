export { buildCanarySecrets, type CanarySecret } from './canary-secrets.js';
export { dropPartialTokenAtEnd, dropPartialTokenAtStart } from './drop-partial-token.js';
export type { RedactionRule, RedactionRuleInfo, ValueRange } from './redaction-rule.js';
export { isLowSeverityRule, REDACTION_RULES, REDACTION_RULE_SET } from './redaction-rules.js';
export { RedactorSelfTestError } from './redactor-self-test-error.js';
export {
  createRedactor,
  Redactor,
  type RedactionResult,
  type RedactorOptions,
} from './redactor.js';
export { runRedactorSelfTest, type RedactorSelfTestOptions } from './self-test.js';
