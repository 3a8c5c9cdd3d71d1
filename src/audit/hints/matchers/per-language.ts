import type { Language } from '../detect-languages.js';
import type { LineMatcher } from '../hint-rule.js';

/** One matcher per language, each needing request input of its own language at the sink. */
export function perLanguage(
  languages: readonly Language[],
  matcher: Omit<LineMatcher, 'languages' | 'requestInput'>,
): LineMatcher[] {
  return languages.map((language) => ({
    ...matcher,
    languages: [language],
    requestInput: language,
  }));
}
