import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileMatchers } from '../../../src/audit/hints/compile-matchers.js';
import { LINE_RULES } from '../../../src/audit/hints/line-rules.js';
import { DEFAULT_RULE_SET } from '../../../src/safety/redact/redaction-rules.js';
import {
  createKeywordScanner,
  type KeywordScanner,
} from '../../../src/shared/text/keyword-scanner.js';

// The scanner replaced a global case-insensitive regular expression stepped one character after
// each hit; it must find exactly what that expression found, on real text and on hostile text.

const WORD_START = /^[a-z0-9_]/;

function escape(keyword: string): string {
  return keyword.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The expression the scanner replaced: word-start keywords behind `\b`, then the rest, longest first. */
function referencePattern(
  keywords: readonly string[],
  isWordStart: (k: string) => boolean,
): RegExp {
  const sorted = [...keywords].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const words = sorted.filter(isWordStart).map(escape);
  const others = sorted.filter((k) => !isWordStart(k)).map(escape);
  const alternatives = [...(words.length > 0 ? [`\\b(?:${words.join('|')})`] : []), ...others];
  return new RegExp(alternatives.join('|'), 'gi');
}

function referenceHits(pattern: RegExp, text: string): string[] {
  const hits: string[] = [];
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    hits.push(`${found.index}:${found[0].toLowerCase()}`);
    pattern.lastIndex = found.index + 1;
  }
  return hits;
}

function scannerHits(scanner: KeywordScanner, text: string): string[] {
  const hits: string[] = [];
  scanner.forEachHit(text, (start, keyword) => hits.push(`${start}:${scanner.keywords[keyword]}`));
  return hits;
}

interface KeywordSet {
  name: string;
  scanner: KeywordScanner;
  pattern: RegExp;
}

function keywordSets(): KeywordSet[] {
  const redactor = DEFAULT_RULE_SET.keywordScanner;
  const sets: KeywordSet[] = [
    {
      name: 'redactor',
      scanner: redactor,
      pattern: referencePattern(redactor.keywords, () => false),
    },
  ];
  for (const languages of [['js'], ['python'], ['java'], ['php', 'template'], ['shell']] as const) {
    const compiled = compileMatchers(LINE_RULES, languages);
    const scanner = compiled.keywordScanner;
    if (scanner === null) throw new Error(`no keywords for ${languages.join(',')}`);
    const insideWords = new Set(
      LINE_RULES.flatMap((rule) => rule.matchers)
        .filter((m) => m.isKeywordInsideWords === true)
        .flatMap((m) => m.keywords),
    );
    const isWordStart = (k: string): boolean => WORD_START.test(k) && !insideWords.has(k);
    sets.push({
      name: `index ${languages.join(',')}`,
      scanner,
      pattern: referencePattern(scanner.keywords, isWordStart),
    });
  }
  return sets;
}

/** Source files of this project: real code in several languages, read at run time. */
function realTexts(): string[] {
  const texts: string[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) visit(file);
      else if (/\.(?:ts|mjs|md|json)$/.test(name)) texts.push(readFileSync(file, 'utf8'));
    }
  };
  for (const dir of ['src', 'test/fixtures', 'docs']) {
    try {
      visit(dir);
    } catch {
      // A folder this checkout lacks.
    }
  }
  return texts;
}

const ODD_UNITS = [
  'ſ',
  'K',
  'İ',
  'ı',
  'é',
  '\u0000',
  '\u200b',
  '\ud83d\ude00',
  '\ud800',
  '’',
  '‘',
  'Σ',
  'ς',
  '_',
  '$',
  '{',
  ' ',
  '\n',
];

/** Text built from keyword pieces, case flips and characters a case fold could confuse. */
function hostileText(keywords: readonly string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < 400; i += 1) {
    const keyword = keywords[randomInt(keywords.length)] ?? '';
    const roll = randomInt(6);
    if (roll === 0) parts.push(ODD_UNITS[randomInt(ODD_UNITS.length)] ?? '');
    else if (roll === 1) parts.push(keyword.slice(0, randomInt(keyword.length + 1)));
    else if (roll === 2) parts.push(keyword.slice(randomInt(keyword.length + 1)));
    else {
      const flipped = [...keyword].map((c) => (randomInt(2) === 0 ? c.toUpperCase() : c)).join('');
      parts.push(flipped);
    }
    if (randomInt(3) === 0) parts.push(randomInt(2) === 0 ? 'x' : '-');
  }
  return parts.join('');
}

describe('keyword scanner', () => {
  const sets = keywordSets();

  it.each(sets.map((s) => [s.name, s] as const))(
    'finds what the regular expression found on real code (%s)',
    (_, { scanner, pattern }) => {
      const texts = realTexts();
      expect(texts.length).toBeGreaterThan(100);
      let hits = 0;
      for (const text of texts) {
        const expected = referenceHits(pattern, text);
        expect(scannerHits(scanner, text)).toEqual(expected);
        hits += expected.length;
      }
      expect(hits).toBeGreaterThan(1000);
    },
  );

  it.each(sets.map((s) => [s.name, s] as const))(
    'finds what the regular expression found on generated hostile text (%s)',
    (_, { scanner, pattern }) => {
      for (let round = 0; round < 40; round += 1) {
        const text = hostileText(scanner.keywords);
        expect(scannerHits(scanner, text)).toEqual(referenceHits(pattern, text));
      }
    },
  );

  it('reports the longest keyword at each start, overlapping hits, and folds ASCII case only', () => {
    const scanner = createKeywordScanner(['api', 'api_key', 'key', 'pike']);
    expect(scannerHits(scanner, 'API_KEY=1 spike')).toEqual(['0:api_key', '4:key', '11:pike']);
    // U+017F and U+212A upper-case to ASCII letters; a non-Unicode regex does not fold them.
    expect(scannerHits(scanner, 'ſpike \u212Aey apı')).toEqual(['1:pike']);
  });

  it('reports overlapping hits in start order when a later keyword ends first', () => {
    const scanner = createKeywordScanner(['abcd', 'bc', 'c']);
    expect(scannerHits(scanner, 'xABCDx abc')).toEqual(['1:abcd', '2:bc', '3:c', '8:bc', '9:c']);
  });

  it('finds word-start keywords only where a word starts', () => {
    const scanner = createKeywordScanner(['exec', '$where'], { isWordStart: (k) => k === 'exec' });
    expect(scannerHits(scanner, 'exec(x); myexec(y); _exec; $exec; a$where')).toEqual([
      '0:exec',
      '28:exec',
      '35:$where',
    ]);
  });

  it('refuses keywords it cannot fold the way the regex did', () => {
    expect(() => createKeywordScanner(['Token'])).toThrow(/lowercase/);
    expect(() => createKeywordScanner(['clé'])).toThrow(/ASCII/);
    expect(scannerHits(createKeywordScanner(['don’t']), "DON’T don't")).toEqual(['0:don’t']);
    expect(() => createKeywordScanner([''])).toThrow(/non-empty/);
  });

  it('finds nothing without keywords', () => {
    expect(scannerHits(createKeywordScanner([]), 'anything')).toEqual([]);
  });
});
