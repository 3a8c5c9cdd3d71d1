import { isRandomToken } from './define-token-rule.js';
import type { RedactionRuleInfo, ValueRange, WindowRule } from './redaction-rule.js';

export interface ContextRuleSpec extends RedactionRuleInfo {
  /** How many lines either side of a keyword to read. */
  contextLines: number;
  /** Global (`g`) pattern run over the window; with a `d` flag and a group 1, the group is the value. */
  pattern: RegExp;
  isSecret?: (value: string) => boolean;
}

/** Builds a rule for a secret whose shape is only telling near a word (`twilio` near `SK` + 32 hex). */
export function defineContextRule(spec: ContextRuleSpec): WindowRule {
  if (!spec.pattern.global) throw new Error(`rule ${spec.id}: pattern must be global`);
  const pattern = spec.pattern;
  const isSecret = spec.isSecret ?? isRandomToken;
  return {
    id: spec.id,
    description: spec.description,
    keywords: spec.keywords,
    scope: 'window',
    contextLines: spec.contextLines,
    findIn(text: string, start: number, end: number): ValueRange[] {
      const window = text.slice(start, end);
      const found: ValueRange[] = [];
      pattern.lastIndex = 0;
      for (let match = pattern.exec(window); match !== null; match = pattern.exec(window)) {
        const range = match.indices?.[1] ?? [match.index, match.index + match[0].length];
        if (isSecret(window.slice(range[0], range[1]))) {
          found.push({ start: start + range[0], end: start + range[1] });
        }
        if (match[0].length === 0) pattern.lastIndex += 1;
      }
      return found;
    },
  };
}
