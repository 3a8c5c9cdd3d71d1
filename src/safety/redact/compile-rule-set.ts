import { createKeywordScanner, type KeywordScanner } from '../../shared/text/keyword-scanner.js';
import type { RedactionRule } from './redaction-rule.js';

/** A rule with its place in the rule set: on a tie, the earlier (more specific) rule names the secret. */
export interface RankedRule {
  rule: RedactionRule;
  rank: number;
}

/** Rules ready to scan with: one keyword scan for all of them and a table from keyword to rules. */
export interface CompiledRuleSet {
  rules: readonly RedactionRule[];
  /** Finds, at each position, the longest keyword there, ignoring ASCII case. */
  keywordScanner: KeywordScanner;
  /** By the scanner's keyword index: that keyword's rules and those of every keyword that is a prefix of it. */
  rulesByKeyword: readonly (readonly RankedRule[])[];
}

const RULE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Checks a rule set and compiles it for scanning; throws on a malformed rule (a programming error). */
export function compileRuleSet(rules: readonly RedactionRule[]): CompiledRuleSet {
  const ownRules = new Map<string, RankedRule[]>();
  const ids = new Set<string>();
  rules.forEach((rule, rank) => {
    if (!RULE_ID.test(rule.id)) throw new Error(`redaction rule id is not kebab-case: ${rule.id}`);
    if (ids.has(rule.id)) throw new Error(`redaction rule id is used twice: ${rule.id}`);
    ids.add(rule.id);
    if (rule.keywords.length === 0) throw new Error(`redaction rule ${rule.id} has no keyword`);
    for (const keyword of rule.keywords) {
      if (keyword === '' || keyword !== keyword.toLowerCase()) {
        throw new Error(`redaction rule ${rule.id}: keyword must be lowercase and non-empty`);
      }
      const list = ownRules.get(keyword) ?? [];
      list.push({ rule, rank });
      ownRules.set(keyword, list);
    }
  });
  const keywords = [...ownRules.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  // Each keyword's prefixes looked up, not every pair of keywords compared: a thousand keywords.
  const rulesByKeyword = keywords.map((keyword) =>
    dedupeByRule(
      Array.from({ length: keyword.length }, (_, index) => keyword.slice(0, index + 1)).flatMap(
        (prefix) => ownRules.get(prefix) ?? [],
      ),
    ),
  );
  return { rules, keywordScanner: createKeywordScanner(keywords), rulesByKeyword };
}

function dedupeByRule(ranked: RankedRule[]): RankedRule[] {
  const seen = new Set<RedactionRule>();
  return ranked
    .filter(({ rule }) => !seen.has(rule) && seen.add(rule))
    .sort((a, b) => a.rank - b.rank);
}
