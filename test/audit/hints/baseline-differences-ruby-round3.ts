import type { ExpectedDifference } from './hint-baseline.test.js';

// The baseline differences the third round of Ruby rows of issue 30 makes, each argued in a line.
export const RUBY_ROUND3_DIFFERENCES: readonly ExpectedDifference[] = [
  {
    path: 'hint-corpus/xss/rb-vuln-sinatra-halt.rb',
    line: 5,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: Sinatra halt with a status and request-built HTML sends that HTML as the page; the trailing if is its condition.',
  },
  {
    path: 'hint-corpus/weak-crypto/rb-vuln-random-held.rb',
    line: 10,
    category: 'weak-crypto',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a Random made in initialize and held in @rng, then drawn from for a reset token (its receiver is made from Random.new).',
  },
  {
    path: 'hint-corpus/xpath-injection/rb-vuln-nokogiri-css.rb',
    line: 8,
    category: 'xpath-injection',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: Nokogiri's at_css compiles a selector built from a Sinatra route capture to XPath and evaluates it (searchable.rb, CSS.xpath_for; medium: through the capture).",
  },
];
