import { isPlaceholderValue } from './is-placeholder-value.js';
import type { AnchoredRule, RedactionRuleInfo, ValueRange } from './redaction-rule.js';
import { shannonEntropy } from './shannon-entropy.js';

// Bits per character below which a token-shaped value is a stand-in (`AKIA0000...`, `ghp_aaaa...`).
const TOKEN_ENTROPY_FLOOR_BITS = 3;

export interface TokenRuleSpec extends RedactionRuleInfo {
  /**
   * Sticky (`y`) pattern tried where a keyword starts. With a `d` flag and a group 1, the group is
   * the value; otherwise the whole match is.
   */
  pattern: RegExp;
  /**
   * Whether the keyword must start a word (not follow a letter or digit). Default false: a token's
   * prefix is distinctive, and a character glued before it (`Xghp_...`) must not hide it.
   */
  startsWord?: boolean;
  /** Extra check of the value; the default refuses placeholders and low-entropy values. */
  isSecret?: (value: string) => boolean;
}

/** Builds a rule for a secret with a recognisable shape that starts at (or just after) its keyword. */
export function defineTokenRule(spec: TokenRuleSpec): AnchoredRule {
  if (!spec.pattern.sticky) throw new Error(`rule ${spec.id}: pattern must be sticky`);
  const pattern = spec.pattern;
  const startsWord = spec.startsWord ?? false;
  const isSecret = spec.isSecret ?? isRandomToken;
  return {
    id: spec.id,
    description: spec.description,
    keywords: spec.keywords,
    scope: 'anchored',
    findAt(text: string, at: number): ValueRange | undefined {
      if (startsWord && at > 0 && isWordCharacter(text.charCodeAt(at - 1))) return undefined;
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (match === null) return undefined;
      const range = match.indices?.[1] ?? [match.index, match.index + match[0].length];
      const value = text.slice(range[0], range[1]);
      return isSecret(value) ? { start: range[0], end: range[1] } : undefined;
    },
  };
}

/** The default value check of token rules. */
export function isRandomToken(value: string): boolean {
  return !isPlaceholderValue(value) && shannonEntropy(value) >= TOKEN_ENTROPY_FLOOR_BITS;
}

export function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}
