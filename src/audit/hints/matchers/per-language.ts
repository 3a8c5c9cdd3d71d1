import type { Language } from '../detect-languages.js';
import type { RequestSinkMatcher } from '../hint-rule.js';

/** One matcher per language, each needing request input of its own language at the sink. */
export function perLanguage(
  languages: readonly Language[],
  matcher: Omit<RequestSinkMatcher, 'kind' | 'languages' | 'input'>,
): RequestSinkMatcher[] {
  return languages.map((language) => ({
    ...matcher,
    kind: 'request-sink',
    languages: [language],
    input: language,
  }));
}
