import { isRandomToken } from './define-token-rule.js';
import type { SecretSpan } from './find-secret-spans.js';
import { looksLikeWords } from './looks-like-words.js';

// Shorter values, and words (`Uint8Array` after `password:`), recur by chance in ordinary text.
const MIN_REPEATED_VALUE_CHARS = 16;

/**
 * Every other place in the text where a value already found as a secret occurs again, named by the
 * same rule: a secret copied next to its assignment (`x = 'v' | 'v'`, a log line echoing it) is
 * the same leak without the context that made it recognisable.
 */
export function findRepeatedValues(text: string, spans: readonly SecretSpan[]): SecretSpan[] {
  const repeats: SecretSpan[] = [];
  const seen = new Set<string>();
  for (const span of spans) {
    const value = text.slice(span.start, span.end);
    if (value.length < MIN_REPEATED_VALUE_CHARS || seen.has(value)) continue;
    seen.add(value);
    if (!isRandomToken(value) || looksLikeWords(value)) continue;
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
      if (at !== span.start) repeats.push({ ...span, start: at, end: at + value.length });
    }
  }
  return repeats;
}
