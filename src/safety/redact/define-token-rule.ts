import { isPlaceholderValue } from './is-placeholder-value.js';
import { isMostlyWords } from './looks-like-words.js';
import type { AnchoredRule, RedactionRuleInfo, ValueRange } from './redaction-rule.js';
import { isRepetitive } from './shannon-entropy.js';
import { takeGluedToken } from './take-glued-token.js';

export { isWordCharacter } from './take-glued-token.js';

export interface TokenRuleSpec extends RedactionRuleInfo {
  /**
   * Sticky (`y`) pattern tried where a keyword starts. With a `d` flag and a group 1, the group is
   * the value; otherwise the whole match is. A token that names itself is stated alone, with no
   * lookaround at its edges: `takeGluedToken` judges its neighbours.
   */
  pattern: RegExp;
  /** Extra check of the value; the default refuses placeholders and low-entropy values. */
  isSecret?: (value: string) => boolean;
  /** Default: true when the whole match is the value, false when a group after a name is. */
  namesItself?: boolean;
}

/** Builds a rule for a secret with a recognisable shape that starts at (or just after) its keyword. */
export function defineTokenRule(spec: TokenRuleSpec): AnchoredRule {
  if (!spec.pattern.sticky) throw new Error(`rule ${spec.id}: pattern must be sticky`);
  const pattern = spec.pattern;
  const isSecret = spec.isSecret ?? isRandomToken;
  const namesItself = spec.namesItself ?? !pattern.hasIndices;
  const keywordsLongestFirst = [...spec.keywords].sort((a, b) => b.length - a.length);
  return {
    id: spec.id,
    description: spec.description,
    keywords: spec.keywords,
    ...(spec.severity && { severity: spec.severity }),
    ...(namesItself && { namesItself }),
    scope: 'anchored',
    findAt(text: string, at: number): ValueRange | undefined {
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (match === null) return undefined;
      const range = match.indices?.[1] ?? [match.index, match.index + match[0].length];
      const value = text.slice(range[0], range[1]);
      if (!isSecret(value)) return undefined;
      // A body of words after a real prefix (`glptt-hellOworld380_testin`) was typed, not issued.
      const keyword = keywordsLongestFirst.find(
        (word) => text.slice(at, at + word.length).toLowerCase() === word,
      );
      // A URL's fixed path words (`hooks/catch/`) are not its body: that starts after the last `/`.
      const bodyStart = Math.max(
        range[0],
        at + (keyword?.length ?? 0),
        range[0] + value.lastIndexOf('/') + 1,
      );
      if (isMostlyWords(text.slice(bodyStart, range[1]))) return undefined;
      if (!namesItself) return { start: range[0], end: range[1] };
      return takeGluedToken(text, range[0], range[1]);
    },
  };
}

/** The default value check of token rules: not a stand-in (`AKIA0000...`, `ghp_xxxx...`). */
export function isRandomToken(value: string): boolean {
  return !isPlaceholderValue(value) && !isRepetitive(value);
}
