import type { ExpectedDifference } from './hint-baseline.test.js';

// The baseline differences of issue 30's third round for PHP, Java and the engine, each argued in a line.
export const ROUND3_PHP_JAVA_DIFFERENCES: readonly ExpectedDifference[] = [
  {
    path: 'hint-corpus/xss/php-vuln-laravel-arrow-route.php',
    line: 6,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a Laravel route arrow function binds the URL placeholder to its string parameter and returns HTML built from it.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-laravel-arrow-route.php',
    line: 8,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a `static fn` route arrow with a return type returns HTML concatenated from its untyped route parameter.',
  },
  {
    path: 'hint-corpus/path-traversal/php-vuln-laravel-arrow-route.php',
    line: 6,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a route arrow hands its URL parameter to response()->file under a folder, so `..` walks out of it.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-leaf-parent.java',
    line: 9,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a File built from the request and cut with getParent keeps its `..` components; only a leaf method (getName, getFileName) clears it.',
  },
  {
    path: 'hint-corpus/path-traversal/java-vuln-leaf-parent.java',
    line: 10,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason: 'New fixture: the parent folder taken from the request is opened by Files.copy.',
  },
];
