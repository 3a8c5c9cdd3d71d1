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
];
