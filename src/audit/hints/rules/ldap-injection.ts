import type { CategoryRules, HintRule } from '../hint-rule.js';
import { readExamples } from '../matchers/read-examples.js';
import EXAMPLES from './ldap-injection.examples.json' with { type: 'json' };
import { perLanguage } from '../matchers/per-language.js';

const LDAP_INJECTION: HintRule = {
  id: 'ldap/request-filter',
  category: 'ldap-injection',
  severity: 'high',
  description: 'An LDAP search whose filter is built from request data.',
  message:
    'The LDAP filter is built from request data, so a client can change the search; escape the value or pass it as a filter argument.',
  matchers: [
    // PHP: ldap_search, ldap_list and ldap_read all take a filter (https://www.php.net/manual/en/ref.ldap.php).
    ...perLanguage(['java', 'python', 'php'], {
      keywords: ['search', 'search_s', 'search_st', 'ldap_search', 'ldap_list', 'ldap_read'],
      pattern: /(?:\.search(?:_s|_st|_ext_s)?|\bldap_(?:search|list|read))\s*\(/,
      unless: /new\s+Object\s*\[\s*\]/,
      fileRequires: /ldap|DirContext|naming\.directory/i,
    }),
    // ldapjs and ldapts: `client.search(base, { filter })` (the filter sits in the options, so
    // every argument is read), and ldapjs's parseFilter of a filter string.
    ...perLanguage(['js'], {
      argument: 'all',
      fileRequires: /["'](?:ldapjs|ldapts|ldap-filter)["']/,
      keywords: ['search', 'parsefilter'],
      pattern: /\.search\s*\(|\bparseFilter\s*\(/,
    }),
  ],
};

export const LDAP_INJECTION_CATEGORY: CategoryRules = {
  category: 'ldap-injection',
  label: 'LDAP filter built from request data',
  sinkKind: 'ldap',
  rules: [LDAP_INJECTION],
  examples: readExamples(EXAMPLES, 'ldap-injection.examples.json'),
};
