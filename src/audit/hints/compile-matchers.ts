import type { Language } from './detect-languages.js';
import { escapeRegExp } from './escape-reg-exp.js';
import type { HintRule, LineMatcher } from './hint-rule.js';

/** A matcher with the rule it belongs to and a slot number for per-file scan state. */
export interface CompiledMatcher {
  slot: number;
  rule: HintRule;
  matcher: LineMatcher;
}

/** All matchers for one set of languages, behind one keyword scan. */
export interface CompiledMatchers {
  /** Global, case-insensitive alternation of every keyword; null when there is none. */
  keywordPattern: RegExp | null;
  /** Matchers to try when a keyword (lowercased) is found. */
  byKeyword: ReadonlyMap<string, readonly CompiledMatcher[]>;
  slotCount: number;
}

const WORD_START = /^[a-z0-9_]/;

/**
 * Builds the keyword scan for the rules that apply to some languages. Keywords are reduced to a
 * prefix-free set (a keyword whose prefix is also a keyword hands its matchers to that prefix), so
 * that one match per position finds every matcher that could apply there.
 */
export function compileMatchers(
  rules: readonly HintRule[],
  languages: readonly Language[],
): CompiledMatchers {
  const applicable: CompiledMatcher[] = [];
  for (const rule of rules) {
    for (const matcher of rule.matchers) {
      if (matcher.languages.some((l) => l === 'any' || languages.includes(l))) {
        applicable.push({ slot: applicable.length, rule, matcher });
      }
    }
  }
  const keywords = [...new Set(applicable.flatMap((c) => c.matcher.keywords))].sort(
    (a, b) => a.length - b.length || (a < b ? -1 : 1),
  );
  const canonical = new Map<string, string>();
  for (const keyword of keywords) {
    const prefix = keywords.find((k) => k.length <= keyword.length && keyword.startsWith(k));
    canonical.set(keyword, prefix ?? keyword);
  }
  const byKeyword = new Map<string, CompiledMatcher[]>();
  for (const compiled of applicable) {
    for (const keyword of compiled.matcher.keywords) {
      const key = canonical.get(keyword) ?? keyword;
      const list = byKeyword.get(key) ?? [];
      if (!list.includes(compiled)) list.push(compiled);
      byKeyword.set(key, list);
    }
  }
  const insideWords = new Set(
    applicable
      .filter((c) => c.matcher.isKeywordInsideWords === true)
      .flatMap((c) => c.matcher.keywords),
  );
  return {
    keywordPattern: buildKeywordPattern([...byKeyword.keys()], insideWords),
    byKeyword,
    slotCount: applicable.length,
  };
}

function buildKeywordPattern(
  keywords: readonly string[],
  insideWords: ReadonlySet<string>,
): RegExp | null {
  if (keywords.length === 0) return null;
  const isWordStart = (k: string): boolean => WORD_START.test(k) && !insideWords.has(k);
  const words = keywords.filter(isWordStart).map(escapeRegExp);
  const others = keywords.filter((k) => !isWordStart(k)).map(escapeRegExp);
  const alternatives = [...(words.length > 0 ? [`\\b(?:${words.join('|')})`] : []), ...others];
  return new RegExp(alternatives.join('|'), 'gi');
}
