import { describe, expect, it } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import { WEAK_RANDOM } from '../../../src/audit/hints/knowledge/randomness.js';

// The file each weak-random row's one-line examples are read in: the generator imported, as real code has it.
const FILES: Readonly<Record<string, { path: string; prefix: string }>> = {
  js: { path: 'src/tokens.js', prefix: "const crypto = require('node:crypto');\n" },
  python: { path: 'app/tokens.py', prefix: 'import random\nimport secrets\n' },
  php: { path: 'src/tokens.php', prefix: '<?php\n' },
  go: { path: 'cmd/tokens.go', prefix: 'package main\n\nimport (\n\t"math/rand"\n)\n\n' },
  java: {
    path: 'src/main/java/Tokens.java',
    prefix: 'import java.security.SecureRandom;\nimport java.util.SplittableRandom;\n\n',
  },
  ruby: { path: 'app/models/token.rb', prefix: "require 'securerandom'\n\n" },
};

describe('every weak-random table row proves itself', () => {
  for (const row of WEAK_RANDOM) {
    const file = FILES[row.language];
    it(`${row.language}: flags its flagged example and not its safe one`, () => {
      expect(file, `no example file for ${row.language}`).toBeDefined();
      if (file === undefined) return;
      const hintsOf = (line: string): string[] =>
        indexFile({ path: file.path, text: `${file.prefix}${line}\n` })
          .filter((hint) => hint.category === 'weak-crypto')
          .map((hint) => hint.ruleId);
      expect(hintsOf(row.flagged)).toContain('crypto/insecure-random');
      expect(hintsOf(row.safe)).toEqual([]);
    });
  }
});
