import type { HintRule } from './hint-rule.js';
import { RULE_CATEGORIES } from './rule-categories.js';

/** Every keyword-triggered rule, category by category. */
export const LINE_RULES: readonly HintRule[] = RULE_CATEGORIES.flatMap(
  (category) => category.rules,
);
