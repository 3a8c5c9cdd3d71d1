import type { ExpectedDifference } from './hint-baseline.test.js';

/** Round 4 of issue 30: casts without parentheses, guards written after the sink, Sinatra's `halt … if`. */
export const ROUND4_DIFFERENCES: readonly ExpectedDifference[] = [
  {
    path: 'hint-corpus/xpath-injection/rb-vuln-nokogiri-text-index.rb',
    line: 9,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason:
      'A new fixture: `params[:name].to_s` keeps the request text, so the quoted XPath predicate it fills stays injectable, unlike `.to_i`.',
  },
  {
    path: 'hint-corpus/xpath-injection/rb-vuln-nokogiri-guard-modifier.rb',
    line: 10,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason:
      'A new fixture: `… unless id =~ /\\A\\w+\\z/` runs the query only when the id is NOT a word, so the trailing test is no guard.',
  },
  {
    path: 'hint-corpus/xss/rb-vuln-sinatra-halt-condition.rb',
    line: 4,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'A new fixture: `halt 400, "<p>…#{params[:q]}</p>" if …` sends request-built HTML; only its trailing condition is cut from the body.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-laravel-return-body.php',
    line: 7,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'A new fixture: a Laravel route returns the request body (php://input) as its text/html page; a file read by name stays stored data.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-leaf-variable.java',
    line: 11,
    category: 'path-traversal',
    change: 'added',
    severity: 'high',
    reason:
      'A new fixture: the File made from the request name is also read whole through getPath, so it is a used path, not one held for its leaf.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-leaf-variable.java',
    line: 13,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'A new fixture: getPath keeps every component of the request name, `..` included, under the fixed folder.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-leaf-variable.java',
    line: 14,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'A new fixture: the stream opens the File built from the whole request path on the line before.',
  },
];
