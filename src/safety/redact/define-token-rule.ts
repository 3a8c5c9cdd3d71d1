import { isPlaceholderValue } from './is-placeholder-value.js';
import { isMostlyWords } from './looks-like-words.js';
import type { AnchoredRule, RedactionRuleInfo, ValueRange } from './redaction-rule.js';
import { isRepetitive } from './shannon-entropy.js';

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
  /**
   * Whether token characters glued after the value (`npm_<36>X`) are redacted with it. For prefixes
   * with a separator (`npm_`, `glpat-`): the pattern then ends at the body, without a lookahead.
   */
  takesGluedTail?: boolean;
}

// Token characters glued after a fixed-length token, redacted with it; longer runs keep their rest.
const GLUED_TAIL = /[A-Za-z0-9_-]{0,64}/y;

/** Builds a rule for a secret with a recognisable shape that starts at (or just after) its keyword. */
export function defineTokenRule(spec: TokenRuleSpec): AnchoredRule {
  if (!spec.pattern.sticky) throw new Error(`rule ${spec.id}: pattern must be sticky`);
  const pattern = spec.pattern;
  const startsWord = spec.startsWord ?? false;
  const isSecret = spec.isSecret ?? isRandomToken;
  const takesGluedTail = spec.takesGluedTail ?? false;
  const keywordsLongestFirst = [...spec.keywords].sort((a, b) => b.length - a.length);
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
      if (!isSecret(value)) return undefined;
      // A body of words after a real prefix (`glptt-hellOworld380_testin`) was typed, not issued.
      const keyword = keywordsLongestFirst.find(
        (word) => text.slice(at, at + word.length).toLowerCase() === word,
      );
      const bodyStart = Math.max(range[0], at + (keyword?.length ?? 0));
      if (isMostlyWords(text.slice(bodyStart, range[1]))) return undefined;
      if (!takesGluedTail) return { start: range[0], end: range[1] };
      // Glued on one side only: a prefix in the middle of a longer run (`vipul-<64 hex>`) is not a token.
      const isGluedBefore = range[0] > 0 && isWordCharacter(text.charCodeAt(range[0] - 1));
      const isGluedAfter = isTokenCharacter(text.charCodeAt(range[1]));
      if (isGluedBefore && isGluedAfter) return undefined;
      // The glued tail is judged with the token, never alone: `<token>EXAMPLE` is still the token.
      GLUED_TAIL.lastIndex = range[1];
      GLUED_TAIL.exec(text);
      return { start: range[0], end: GLUED_TAIL.lastIndex };
    },
  };
}

/** The default value check of token rules: not a stand-in (`AKIA0000...`, `ghp_xxxx...`). */
export function isRandomToken(value: string): boolean {
  return !isPlaceholderValue(value) && !isRepetitive(value);
}

export function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** A character a token's body or its glued tail is made of: a letter, digit, `_` or `-`. */
function isTokenCharacter(code: number): boolean {
  return isWordCharacter(code) || code === 95 || code === 45;
}
