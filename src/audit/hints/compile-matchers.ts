import type { Language } from './detect-languages.js';
import { createKeywordScanner, type KeywordScanner } from '../../shared/text/keyword-scanner.js';
import type { HintRule, LineMatcher } from './hint-rule.js';

/** A matcher with the rule it belongs to and a slot number for per-file scan state. */
export interface CompiledMatcher {
  slot: number;
  rule: HintRule;
  matcher: LineMatcher;
}

/** All matchers for one set of languages, behind one keyword scan. */
export interface CompiledMatchers {
  /** Finds every keyword, ignoring ASCII case; null when there is none. */
  keywordScanner: KeywordScanner | null;
  /** By the scanner's keyword index: the matchers to try where that keyword is found. */
  byKeyword: readonly (readonly CompiledMatcher[])[];
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
  const canonicalKeywords = [...byKeyword.keys()];
  if (canonicalKeywords.length === 0) return { keywordScanner: null, byKeyword: [], slotCount: 0 };
  return {
    keywordScanner: createKeywordScanner(canonicalKeywords, {
      // Keywords that begin like a word are found only where a word begins, unless a matcher says
      // otherwise; `{call` and `$where` are found anywhere.
      isWordStart: (k) => WORD_START.test(k) && !insideWords.has(k),
    }),
    byKeyword: canonicalKeywords.map((k) => byKeyword.get(k) ?? []),
    slotCount: applicable.length,
  };
}
