import type { ExpectedDifference } from './hint-baseline.test.js';

// The baseline differences the JS/TS and PHP gap rows of issue 30 make, each argued in a line.
export const JS_PHP_GAP_DIFFERENCES: readonly ExpectedDifference[] = [
  {
    path: 'hint-corpus/command-execution/js-vuln-spawn-shell-args-variable.js',
    line: 10,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: spawn of a shell with an argument list held in a variable, its `-c` script built from the request, read as the list it runs.',
  },
  {
    path: 'hint-corpus/command-execution/js-vuln-spawn-interpreter-inline.js',
    line: 10,
    category: 'command-execution',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: execFile of python3 -c with code built from the request body runs the request text as a program.',
  },
  {
    path: 'hint-corpus/weak-crypto/js-vuln-lodash-sample-size.js',
    line: 6,
    category: 'weak-crypto',
    change: 'added',
    severity: 'medium',
    reason: "New fixture: lodash's _.sampleSize draws from Math.random, here for an invite code.",
  },
  {
    path: 'hint-corpus/weak-crypto/ts-vuln-lodash-random-import.ts',
    line: 7,
    category: 'weak-crypto',
    change: 'added',
    severity: 'high',
    reason:
      'New fixture: lodash/shuffle, imported by name, draws from Math.random for a one-time password.',
  },
  {
    path: 'hint-corpus/weak-crypto/ts-vuln-lodash-random-import.ts',
    line: 12,
    category: 'weak-crypto',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: lodash/random, imported by name, draws from Math.random for a session id.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-laravel-route-parameter.php',
    line: 7,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a Laravel route closure gets its {name} placeholder as an untyped parameter and returns it in a page.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-laravel-route-parameter.php',
    line: 11,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a string-typed route closure parameter is the URL text, returned in a page.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-laravel-route-parameter.php',
    line: 16,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      'New fixture: a route closure with a use () list still gets the placeholder as its first parameter, returned in a page.',
  },
  {
    path: 'hint-corpus/path-traversal/php-vuln-laravel-controller-route.php',
    line: 15,
    category: 'path-traversal',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a controller action named by a Route::get in the same file gets the route placeholders as its untyped parameters, joined into a file path.',
  },
  {
    path: 'hint-corpus/xss/php-vuln-php-input-readfile.php',
    line: 9,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      "New fixture: readfile('php://input') prints the request body into the page as it came.",
  },
  {
    path: 'hint-corpus/xss/php-vuln-php-input-lines.php',
    line: 6,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      "New fixture: file('php://input') reads the request body's lines, echoed into the page.",
  },
  {
    path: 'hint-corpus/xss/php-vuln-php-input-lines.php',
    line: 12,
    category: 'xss',
    change: 'added',
    severity: 'low',
    reason:
      "New fixture: a line of new SplFileObject('php://input') is request text, echoed into the page.",
  },
  {
    path: 'hint-corpus/xss/php-vuln-blade-raw-concat.blade.php',
    line: 5,
    category: 'xss',
    change: 'added',
    severity: 'medium',
    reason:
      'New fixture: a Blade raw echo that escapes one value with e() and concatenates another unescaped is still raw output.',
  },
];
