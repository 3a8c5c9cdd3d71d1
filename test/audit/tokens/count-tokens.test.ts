import { createRequire } from 'node:module';
import type { Tiktoken } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreTokenizer } from '../../../src/audit/tokens/create-pre-tokenizer.js';
import {
  createTokenCounter,
  LONG_PIECE_CHARS,
  type TokenCounter,
  type TokenEncoding,
} from '../../../src/audit/tokens/count-tokens.js';
import { TOKEN_ENCODINGS } from '../../../src/audit/tokens/token-counter.js';
import { seededRandom } from '../../support/seeded-random.js';
import { readCodeCorpus, type CorpusFile } from './read-code-corpus.js';

const { get_encoding } = createRequire(import.meta.url)('tiktoken') as {
  get_encoding(encoding: TokenEncoding): Tiktoken;
};

// Text chosen to hit each branch of both pre-tokenizers and the places where JavaScript's
// regular expressions differ from Rust's (White_Space, case folding, surrogates).
const EDGE_CASES: string[] = [
  '',
  'a',
  'hello world',
  'line one\r\nline two\r\n\r\n',
  'tabs\tand\vvertical\fspace',
  "it's IT'S it'ſ we'LL they'Re I'd you'VE I'm don'T",
  "'s 'S 'ſ 're 'll",
  'camelCaseIdentifier XMLHttpRequest ABCdef ABC',
  '12345678901 3.14159 0x1F ٣٤٥٦٧ ²³',
  '   \n\n\t  \n   x',
  '}\n\n// comment\n//\n/* block */\n',
  ' '.repeat(300) + 'x' + '\t'.repeat(300),
  'x\u0085\u0085y x\ufeff\ufeffy',
  '\u00a0\u00a0nbsp \u0085nel \ufeffbom \u2028sep\u2029 \u3000ideographic',
  'e\u0301 combining, ǅungla Lt, ʰmodifier, 中文字符, عربي, हिन्दी, ไทย',
  '😀 emoji 👩‍👩‍👧‍👦 zwj 🇫🇷 flags 1️⃣ keycap',
  '\ud800 lone high, lone low \udc00, reversed \udc00\ud800',
  '<|endoftext|> <|fim_prefix|> special tokens as plain text',
  '\x00\x01\x1b[31mcontrol\x7f',
  'a'.repeat(300),
  JSON.stringify({ key: 'value', list: [1, 2, 3], nested: { deep: true } }, null, 2),
];

// Characters that stress the pre-tokenizer's class boundaries, for random strings.
const FUZZ_ALPHABET = [
  ...'abstlervdmASLTZ019',
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  "'",
  '/',
  '.',
  '(',
  '}',
  '-',
  '\x00',
  '\x7f',
  ...'éÉǅʰ中ſ٣²—',
  '\u0301',
  '\u00a0',
  '\u0085',
  '\u2028',
  '\ufeff',
  '😀',
  '\ud800',
];

const counters = new Map<TokenEncoding, TokenCounter>();
const encoders = new Map<TokenEncoding, Tiktoken>();
let corpus: CorpusFile[] = [];

beforeAll(() => {
  corpus = readCodeCorpus();
  for (const encoding of TOKEN_ENCODINGS) {
    counters.set(encoding, createTokenCounter(encoding));
    encoders.set(encoding, get_encoding(encoding));
  }
});

afterAll(() => {
  for (const counter of counters.values()) counter.free();
  for (const encoder of encoders.values()) encoder.free();
});

const counterFor = (encoding: TokenEncoding) => counters.get(encoding)!;
const exactCount = (encoding: TokenEncoding, text: string) =>
  encoders.get(encoding)!.encode_ordinary(text).length;

function longestPiece(encoding: TokenEncoding, text: string): number {
  let longest = 0;
  for (const match of text.matchAll(createPreTokenizer(encoding)))
    longest = Math.max(longest, match[0].length);
  return longest;
}

describe('createTokenCounter', () => {
  it('defaults to o200k_base and reports its encoding', () => {
    const counter = createTokenCounter();
    expect(counter.encoding).toBe('o200k_base');
    expect(counter.count('hello world')).toBe(2);
    counter.free();
  });

  it('reads a corpus of several MB of varied real files', () => {
    const bytes = corpus.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
    expect(bytes).toBeGreaterThan(3_000_000);
    expect(corpus.some((file) => /[^\p{ASCII}]/u.test(file.text))).toBe(true);
    expect(corpus.some((file) => file.text.includes('\r\n'))).toBe(true);
    expect(new Set(corpus.map((file) => file.path.split('.').at(-1))).size).toBeGreaterThanOrEqual(
      4,
    );
  });

  describe.each(TOKEN_ENCODINGS)('%s', (encoding) => {
    it('matches encode_ordinary exactly on every corpus file', () => {
      const counter = counterFor(encoding);
      const mismatches: string[] = [];
      let compared = 0;
      for (const file of corpus) {
        const exact = exactCount(encoding, file.text);
        const fast = counter.count(file.text);
        if (longestPiece(encoding, file.text) > LONG_PIECE_CHARS) {
          // Sliced pieces may only over-count, and by at most one token per cut.
          const cuts = Math.ceil(file.text.length / 1024);
          if (fast < exact || fast > exact + cuts)
            mismatches.push(`${file.path}: ${fast} vs ${exact}`);
        } else {
          compared += 1;
          if (fast !== exact) mismatches.push(`${file.path}: ${fast} vs ${exact}`);
        }
      }
      expect(mismatches).toEqual([]);
      expect(compared).toBeGreaterThan(500);
    });

    it('matches encode_ordinary on edge cases', () => {
      const counter = counterFor(encoding);
      for (const text of EDGE_CASES) {
        expect({ text, tokens: counter.count(text) }).toEqual({
          text,
          tokens: exactCount(encoding, text),
        });
      }
    });

    it('matches encode_ordinary on 3,000 random strings of awkward characters', () => {
      const counter = counterFor(encoding);
      const random = seededRandom(encoding === 'o200k_base' ? 1 : 2);
      const mismatches: string[] = [];
      for (let i = 0; i < 3000; i++) {
        let text = '';
        const length = 1 + Math.floor(random() * 40);
        for (let j = 0; j < length; j++)
          text += FUZZ_ALPHABET[Math.floor(random() * FUZZ_ALPHABET.length)];
        if (counter.count(text) !== exactCount(encoding, text))
          mismatches.push(JSON.stringify(text));
      }
      expect(mismatches).toEqual([]);
    });

    it('matches encode_ordinary on 3,000 newline-heavy strings counted by one counter', () => {
      // Breaks, slashes and blanks are where pieces cross line ends; the memo is warm throughout.
      const counter = counterFor(encoding);
      const random = seededRandom(encoding === 'o200k_base' ? 3 : 4);
      const parts = [
        '\n',
        '\n',
        '\r\n',
        '/',
        '//',
        ' ',
        '\t',
        'x',
        'Ab',
        '1',
        ';',
        '*/',
        '"',
        '\u2028',
        '\u0085',
        '\n/',
        ' \n',
      ];
      const mismatches: string[] = [];
      for (let i = 0; i < 3000; i++) {
        let text = '';
        const length = 1 + Math.floor(random() * 60);
        for (let j = 0; j < length; j++) text += parts[Math.floor(random() * parts.length)];
        if (counter.count(text) !== exactCount(encoding, text))
          mismatches.push(JSON.stringify(text));
      }
      expect(mismatches).toEqual([]);
    });

    it('gives the same count when the memo is warm', () => {
      const counter = counterFor(encoding);
      const text = corpus
        .slice(0, 50)
        .map((file) => file.text)
        .join('\n');
      expect(counter.count(text)).toBe(counter.count(text));
      expect(counter.count(text)).toBe(exactCount(encoding, text));
    });

    it('counts a very long piece in slices, never under the exact count', () => {
      const counter = counterFor(encoding);
      for (const text of [
        ' '.repeat(9_000) + 'x',
        'ab'.repeat(2_500),
        ' "' + '😀'.repeat(2_500) + '"',
      ]) {
        expect(longestPiece(encoding, text)).toBeGreaterThan(LONG_PIECE_CHARS);
        const exact = exactCount(encoding, text);
        const fast = counter.count(text);
        expect(fast).toBeGreaterThanOrEqual(exact);
        expect(fast).toBeLessThanOrEqual(exact + Math.ceil(text.length / 1024));
      }
    });

    it('counts each slice of a long piece as tiktoken’s own encode_ordinary counts it', () => {
      // Slices of these re-split into several pieces (a break, then slashes or spaces).
      const counter = counterFor(encoding);
      const spaces = '\n' + ' \n'.repeat(3_000) + ' ';
      // Only o200k carries slashes after a break in the same piece.
      const slashes = '}' + '\n/'.repeat(3_000);
      for (const text of encoding === 'o200k_base' ? [spaces, slashes] : [spaces]) {
        const piece = text.match(createPreTokenizer(encoding))![0];
        expect(piece.length).toBeGreaterThan(LONG_PIECE_CHARS);
        let expected = exactCount(encoding, text.slice(piece.length));
        for (let start = 0; start < piece.length; start += 1024)
          expected += exactCount(encoding, piece.slice(start, start + 1024)) + (start ? 1 : 0);
        expect(counter.count(text)).toBe(expected);
      }
    });
  });
});

describe('countLines', () => {
  const counter = () => counterFor('o200k_base');

  it('gives one count per line, a newline belonging to the line it ends', () => {
    expect(counter().countLines('')).toEqual([]);
    expect(counter().countLines('a')).toEqual([1]);
    expect(counter().countLines('a\n')).toEqual([counter().count('a\n')]);
    expect(counter().countLines('a\nb')).toHaveLength(2);
    expect(counter().countLines('a\r\nb\r\n')).toEqual([
      counter().count('a\r\n'),
      counter().count('b\r\n'),
    ]);
    expect(counter().countLines('\n\n\n')).toEqual([1, 1, 1]);
    // A lone carriage return does not end a line.
    expect(counter().countLines('a\rb\nc')).toEqual([
      counter().count('a\rb\n'),
      counter().count('c'),
    ]);
  });

  it('has as many entries as an editor shows lines', () => {
    for (const file of corpus.slice(0, 300)) {
      const lines = file.text.split('\n');
      const expected = file.text.endsWith('\n') ? lines.length - 1 : lines.length;
      expect(counter().countLines(file.text)).toHaveLength(expected);
    }
  });

  it.each(TOKEN_ENCODINGS)(
    'bounds the tokens of every sampled line range from above (%s)',
    (encoding) => {
      const tokens = counterFor(encoding);
      const random = seededRandom(7);
      const violations: string[] = [];
      let ranges = 0;
      for (const file of corpus.filter((_, index) => index % 3 === 0)) {
        const lines = file.text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
        const lineTokens = tokens.countLines(file.text);
        const prefix = [0];
        for (const value of lineTokens) prefix.push(prefix.at(-1)! + value);
        const samples: [number, number][] = [[0, lines.length]];
        for (let i = 0; i < 20 && lines.length > 0; i++) {
          const start = Math.floor(random() * lines.length);
          const end = start + 1 + Math.floor(random() * Math.min(200, lines.length - start));
          samples.push([start, end]);
        }
        for (const [start, end] of samples) {
          ranges += 1;
          const exact = exactCount(encoding, lines.slice(start, end).join(''));
          if (prefix[end]! - prefix[start]! < exact)
            violations.push(`${file.path} lines ${start + 1}-${end}`);
        }
      }
      expect(violations).toEqual([]);
      expect(ranges).toBeGreaterThan(3000);
    },
  );

  it.each([
    ['o200k_base', 6],
    ['cl100k_base', 5],
  ] as const)(
    'bounds every line range of every short string of breaks and punctuation (%s, length %i)',
    (encoding, maxLength) => {
      const alphabet = [' ', '\n', '\r', '}', '/', '*', 'a', '\u00a0'];
      const tokens = counterFor(encoding);
      const violations: string[] = [];
      let ranges = 0;
      const visit = (text: string): void => {
        if (text.includes('\n')) {
          const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
          const lineTokens = tokens.countLines(text);
          for (let start = 0; start < lines.length; start++) {
            let sum = 0;
            for (let end = start; end < lines.length; end++) {
              sum += lineTokens[end]!;
              ranges += 1;
              if (sum < exactCount(encoding, lines.slice(start, end + 1).join('')))
                violations.push(JSON.stringify(text));
            }
          }
        }
        if (text.length < maxLength) for (const char of alphabet) visit(text + char);
      };
      visit('');
      expect(violations).toEqual([]);
      expect(ranges).toBeGreaterThan(30_000);
    },
  );

  it('charges a line whose end a piece can cross, and only such a line', () => {
    const tokens = counterFor('o200k_base');
    // `});\n/` is one piece across the break, which re-splits the regular expression below it.
    const text = '});\n/^a/.test(s);\nconst x = 1;\n';
    const lines = text.match(/[^\n]*\n/g)!;
    const own = lines.map((line) => tokens.count(line));
    const lineTokens = tokens.countLines(text);
    expect(tokens.count(lines[0]! + lines[1]!)).toBeGreaterThan(own[0]! + own[1]!);
    expect(lineTokens[0]).toBe(tokens.count(lines[0]! + lines[1]!) - own[1]!);
    expect(lineTokens.slice(1)).toEqual(own.slice(1));
  });
});

describe('countWithLines', () => {
  it.each(TOKEN_ENCODINGS)(
    'gives count() and countLines(), on every corpus file, edge case and newline-heavy string (%s)',
    (encoding) => {
      const counter = counterFor(encoding);
      const random = seededRandom(encoding === 'o200k_base' ? 11 : 12);
      const parts = ['\n', '\n', '\r\n', '\r', '/', '//', ' ', '\t', 'x', 'Ab', '1', ';', '*/'];
      const extra = ['\u2028', '\u0085', '\u00a0', '\n/', ' \n', "'", 'é', '😀', '\ud800'];
      const texts = [...corpus.map((file) => file.text), ...EDGE_CASES];
      for (let i = 0; i < 3000; i++) {
        let text = '';
        const length = 1 + Math.floor(random() * 60);
        const alphabet = i % 2 === 0 ? parts : [...parts, ...extra];
        for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
        texts.push(text);
      }
      // Long runs of sticky lines (blank lines, slashes after punctuation) joined across many lines.
      texts.push('}\n'.repeat(50) + '\n'.repeat(5000) + '/x/;\n/'.repeat(300));
      const mismatches: string[] = [];
      for (const text of texts) {
        const both = counter.countWithLines(text);
        // count() itself is exact up to pieces over LONG_PIECE_CHARS, which it bounds from above.
        const expected =
          longestPiece(encoding, text) > LONG_PIECE_CHARS
            ? counter.count(text)
            : exactCount(encoding, text);
        if (both.tokens !== expected) mismatches.push(`total ${text.slice(0, 80)}`);
        if (JSON.stringify(both.lineTokens) !== JSON.stringify(counter.countLines(text)))
          mismatches.push(`lines ${text.slice(0, 80)}`);
      }
      expect(texts.length).toBeGreaterThan(3000 + corpus.length);
      expect(mismatches).toEqual([]);
    },
    120_000,
  );
});
