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
      // JNDI's filter arguments (`search(base, "(uid={0})", new Object[]{v}, …)`) and Spring LDAP's
      // query builder (`where("uid").is(v)` encodes the value) keep the value out of the filter.
      unless: /new\s+Object\s*\[\s*\]|\.where\s*\(\s*"[^"]*"\s*\)\s*\.\s*is\s*\(/,
      fileRequires: /ldap|DirContext|naming\.directory/i,
    }),
    // Spring LDAP's LdapTemplate: a filter string given to search, searchForObject or a query's
    // filter (authenticate's password argument is request data too, so it is left to a reviewer) (https://docs.spring.io/spring-ldap/docs/current/apidocs/org/springframework/ldap/core/LdapTemplate.html).
    ...perLanguage(['java'], {
      keywords: ['searchforobject', 'searchforcontext', 'findone', 'filter'],
      pattern:
        /\.(?:searchForObject|searchForContext|findOne)\s*\(|\bquery\s*\(\s*\)(?:\s*\.\s*\w+\s*\([^()]*\))*\s*\.\s*filter\s*\(/,
      fileRequires: /springframework\.ldap|LdapTemplate|LdapQueryBuilder/,
    }),
    // Ruby's net-ldap (ruby-ldap/ruby-net-ldap lib/net/ldap/filter.rb at 07b48d3c): a filter parsed
    // from a string (Filter.construct, alias from_rfc2254/from_rfc4515) or a string `filter:` handed to
    // search; Filter.eq and ne take the value unescaped and read its `*` as a wildcard ("This filter
    // does not perform any escaping"), while equals, begins, ends and contains escape it.
    ...perLanguage(['ruby'], {
      keywords: ['construct', 'from_rfc'],
      pattern: /\bFilter\.(?:construct|from_rfc2254|from_rfc4515)\s*\(/,
      fileRequires: /net\/ldap|Net::LDAP/,
      argument: 'first',
    }),
    ...perLanguage(['ruby'], {
      keywords: ['filter.eq', 'filter.ne'],
      pattern: /\bFilter\.(?:eq|ne)\s*\(/,
      fileRequires: /net\/ldap|Net::LDAP/,
      argument: 'call',
    }),
    ...perLanguage(['ruby'], {
      keywords: ['filter:'],
      pattern: /\bfilter:\s*(?=\S)/,
      fileRequires: /net\/ldap|Net::LDAP/,
      argument: 'rest',
    }),
    // Go: go-ldap's NewSearchRequest(baseDN, scope, deref, sizeLimit, timeLimit, typesOnly, filter,
    // attributes, controls) and CompileFilter take the filter as text (go-ldap/ldap v3/search.go and
    // v3/filter.go); the base DN is read too, as a DN built from the request is injected the same way.
    ...perLanguage(['go'], {
      keywords: ['newsearchrequest', 'compilefilter'],
      pattern: /\bldap\.(?:NewSearchRequest|CompileFilter)\s*\(/,
      argument: 'call',
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
