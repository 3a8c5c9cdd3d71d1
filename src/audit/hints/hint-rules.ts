import { FILE_SCANNERS } from './file-scanners.js';
import type { HintRule, HintRuleInfo, RuleLanguage } from './hint-rule.js';
import { LINE_RULES } from './line-rules.js';
import { COMMITTED_SECRET_FILE_RULE, HARDCODED_CREDENTIAL_RULE } from './secret-rules.js';

function describeLineRule(rule: HintRule): HintRuleInfo {
  const languages = new Set<RuleLanguage>(rule.matchers.flatMap((m) => m.languages));
  return {
    id: rule.id,
    category: rule.category,
    severity: rule.severity,
    description: rule.description,
    languages: languages.has('any') ? ['any'] : [...languages].sort(),
  };
}

/** One table of every rule a hint can carry, in a stable order, for docs and SARIF rule lists. */
export const HINT_RULES: readonly HintRuleInfo[] = [
  ...LINE_RULES.map(describeLineRule),
  ...FILE_SCANNERS.flatMap((scanner) => scanner.rules),
  HARDCODED_CREDENTIAL_RULE,
  COMMITTED_SECRET_FILE_RULE,
];
