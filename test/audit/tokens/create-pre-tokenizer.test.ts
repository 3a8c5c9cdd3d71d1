import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createPreTokenizer } from '../../../src/audit/tokens/create-pre-tokenizer.js';
import { TOKEN_ENCODINGS } from '../../../src/audit/tokens/token-counter.js';

const require = createRequire(import.meta.url);

// The three rewrites that make Rust's pattern run in Node 20 with the same meaning.
function rewriteForJavaScript(rustPattern: string): string {
  return rustPattern
    .replaceAll(
      "(?i:'s|'t|'re|'ve|'m|'ll|'d)",
      "(?:'(?:[sS\\u017F]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD]))",
    )
    .replaceAll('\\s', '\\p{White_Space}')
    .replaceAll('\\S', '\\P{White_Space}');
}

describe('createPreTokenizer', () => {
  it.each(TOKEN_ENCODINGS)(
    'is tiktoken’s own %s pattern with only the documented rewrites',
    (encoding) => {
      const { pat_str } = require(`tiktoken/encoders/${encoding}.json`) as { pat_str: string };
      expect(pat_str).toContain('(?i:');
      expect(createPreTokenizer(encoding).source).toBe(
        new RegExp(rewriteForJavaScript(pat_str), 'u').source,
      );
    },
  );

  it.each(TOKEN_ENCODINGS)(
    'starts a piece at every code point and every lone surrogate (%s), as the sticky counter assumes',
    (encoding) => {
      const sticky = createPreTokenizer(encoding, 'y');
      expect(sticky.flags).toBe('uy');
      const missed: number[] = [];
      const probe = (unit: string, code: number): void => {
        sticky.lastIndex = 1;
        if (!sticky.test(`x${unit}a`) || sticky.lastIndex <= 1) missed.push(code);
      };
      for (let code = 0; code <= 0x10ffff; code++) {
        if (code < 0xd800 || code > 0xdfff) probe(String.fromCodePoint(code), code);
        else probe(String.fromCharCode(code), code);
      }
      expect(missed).toEqual([]);
    },
  );

  it('returns a fresh global expression each time, so callers never share lastIndex', () => {
    const first = createPreTokenizer('o200k_base');
    expect(first.flags).toBe('gu');
    expect(createPreTokenizer('o200k_base')).not.toBe(first);
  });

  it('splits contractions, case and numbers as tiktoken does', () => {
    const pieces = (encoding: 'o200k_base' | 'cl100k_base', text: string) =>
      text.match(createPreTokenizer(encoding));
    expect(pieces('o200k_base', "DON'T it'ſ HTTPServer 12345")).toEqual([
      "DON'T",
      " it'ſ",
      ' HTTPServer',
      ' ',
      '123',
      '45',
    ]);
    expect(pieces('cl100k_base', "DON'T it'ſ 12345")).toEqual([
      'DON',
      "'T",
      ' it',
      "'ſ",
      ' ',
      '123',
      '45',
    ]);
    // Node's \s would take U+FEFF as space and miss U+0085; tiktoken (Rust) does the opposite.
    expect(pieces('o200k_base', 'x\u0085\u0085y')).toEqual(['x', '\u0085', '\u0085y']);
    expect(pieces('o200k_base', 'x\ufeff\ufeffy')).toEqual(['x', '\ufeff\ufeff', 'y']);
  });
});
