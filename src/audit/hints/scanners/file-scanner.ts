import type { FileContext } from '../file-context.js';
import type { HintCollector } from '../hint-collector.js';
import type { HintRuleInfo, RuleLanguage } from '../hint-rule.js';

/** A rule family that reads the file its own way instead of through keyword-triggered line patterns. */
export interface FileScanner {
  rules: readonly HintRuleInfo[];
  languages: readonly RuleLanguage[];
  scan(file: FileContext, collector: HintCollector): void;
}
