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
];
