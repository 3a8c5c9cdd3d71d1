import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { showInvisible, splitInvisible } from '../../../src/shared/terminal/show-invisible.js';
import { findRawControls } from '../../support/hostile-terminal-text.js';

/**
 * Every class of invisible padding, between two commands, at a count drawn per run: the preview shows
 * both commands, one marker with the exact count, and none of the padding itself.
 */
const ESC = '\u001b';
const PADDING: ReadonlyArray<{ name: string; unit: string; marker: (count: string) => string }> = [
  { name: 'spaces', unit: ' ', marker: (n) => `⟨${n} spaces⟩` },
  { name: 'tabs', unit: '\t', marker: (n) => `⟨${n} tabs⟩` },
  { name: 'newlines', unit: '\n', marker: (n) => `⟨${n} newlines⟩` },
  { name: 'carriage returns', unit: '\r', marker: (n) => `⟨${n} × ^M⟩` },
  { name: 'form feeds', unit: '\f', marker: (n) => `⟨${n} × ^L⟩` },
  { name: 'vertical tabs', unit: '\v', marker: (n) => `⟨${n} × ^K⟩` },
  { name: 'NUL', unit: '\u0000', marker: (n) => `⟨${n} × ^@⟩` },
  { name: 'DEL', unit: '\u007f', marker: (n) => `⟨${n} × ^?⟩` },
  { name: 'NEL (C1)', unit: '\u0085', marker: (n) => `⟨${n} × U+0085⟩` },
  { name: 'no-break spaces', unit: '\u00a0', marker: (n) => `⟨${n} × U+00A0 no-break space⟩` },
  ...Array.from({ length: 11 }, (_, index) => {
    const code = 0x2000 + index;
    const hex = code.toString(16).toUpperCase();
    return {
      name: `U+${hex}`,
      unit: String.fromCharCode(code),
      marker: (n: string) => `⟨${n} × U+${hex} `,
    };
  }),
  { name: 'zero-width spaces', unit: '\u200b', marker: (n) => `⟨${n} × U+200B zero-width space⟩` },
  {
    name: 'zero-width joiners',
    unit: '\u200d',
    marker: (n) => `⟨${n} × U+200D zero-width joiner⟩`,
  },
  { name: 'line separators', unit: '\u2028', marker: (n) => `⟨${n} × U+2028 line separator⟩` },
  { name: 'paragraph separators', unit: '\u2029', marker: (n) => `⟨${n} × U+2029 paragraph` },
  {
    name: 'right-to-left overrides',
    unit: '\u202e',
    marker: (n) => `⟨${n} × U+202E right-to-left`,
  },
  { name: 'isolates', unit: '\u2066', marker: (n) => `⟨${n} × U+2066 left-to-right isolate⟩` },
  { name: 'word joiners', unit: '\u2060', marker: (n) => `⟨${n} × U+2060 word joiner⟩` },
  { name: 'byte-order marks', unit: '\ufeff', marker: (n) => `⟨${n} × U+FEFF zero-width` },
  { name: 'soft hyphens', unit: '\u00ad', marker: (n) => `⟨${n} × U+00AD soft hyphen⟩` },
  { name: 'ideographic spaces', unit: '\u3000', marker: (n) => `⟨${n} × U+3000 ideographic` },
  { name: 'Hangul fillers', unit: '\u3164', marker: (n) => `⟨${n} × U+3164 Hangul filler⟩` },
  { name: 'braille blanks', unit: '\u2800', marker: (n) => `⟨${n} × U+2800 braille blank⟩` },
  { name: 'tag characters', unit: '\u{e0041}', marker: (n) => `⟨${n} × U+E0041 tag character⟩` },
  { name: 'variation selectors', unit: '\ufe0f', marker: (n) => `⟨${n} × U+FE0F variation` },
  { name: 'private use', unit: '\ue000', marker: (n) => `⟨${n} × U+E000⟩` },
  { name: 'combining marks', unit: '\u0301', marker: (n) => `⟨${n} × U+0301 combining mark⟩` },
  { name: 'cursor-up escapes', unit: `${ESC}[1A`, marker: (n) => `⟨${n} × ^[[1A⟩` },
  { name: 'cursor-forward escapes', unit: `${ESC}[99C`, marker: (n) => `⟨${n} × ^[[99C⟩` },
  { name: '8-bit CSI escapes', unit: '\u009b2K', marker: (n) => `⟨${n} × <U+009B>2K⟩` },
];

describe('invisible padding between two commands', () => {
  it.each(PADDING.map((entry) => [entry.name, entry]))('%s', (_, entry) => {
    const count = randomInt(200, 9000);
    const shown = count.toLocaleString('en-US');
    const text = `touch "$PWD/PWNED";${entry.unit.repeat(count)}npm test`;
    const output = showInvisible(text);
    expect(output.startsWith('touch "$PWD/PWNED";⟨')).toBe(true);
    expect(output.endsWith('⟩npm test')).toBe(true);
    expect(output).toContain(entry.marker(shown));
    // The padding itself is gone: a short line, no raw control, not one of the units left.
    expect(output.length).toBeLessThan(120);
    expect(findRawControls(output)).toEqual([]);
    expect(output.replace(/⟨[^⟩]*⟩/gu, '')).toBe('touch "$PWD/PWNED";npm test');
    // Every original character is counted.
    const pieces = splitInvisible(text);
    const counted = pieces.reduce(
      (sum, piece) => sum + (piece.kind === 'break' ? 1 : piece.chars),
      0,
    );
    expect(counted).toBe([...text].length);
  });

  it('a mixture is one marker with its totals, and the exact form lists it in order', () => {
    const text = `a${' \u00a0\n\u200b'.repeat(1000)}b`;
    expect(showInvisible(text)).toBe(
      'a ⟨3,999 invisible characters: 1,000 × U+00A0 no-break space, 1,000 newlines, 1,000 × U+200B zero-width space, 1 other kind⟩b',
    );
    const exact = showInvisible(text, { isExact: true });
    expect(
      exact.startsWith(
        'a ⟨U+00A0 no-break space + 1 newline + U+200B zero-width space + 1 space + ',
      ),
    ).toBe(true);
    expect(exact.match(/ \+ /gu)).toHaveLength(3998);
  });

  it('keeps what reads normally: words, short indentation, a blank line, accents and emoji', () => {
    const text = 'if true; then\n    echo  "café"\n\n\techo é́ 1\ufe0f\u20e3\nfi';
    expect(showInvisible(text)).toBe(text);
  });

  it('counts long indentation, many blank lines, three stacked marks and a mark with no letter', () => {
    expect(showInvisible(`a\n${' '.repeat(20)}b`)).toBe('a⟨1 newline + 20 spaces⟩b');
    expect(showInvisible('a\n\n\n\n\nb')).toBe('a⟨5 newlines⟩b');
    expect(showInvisible('e\u0301\u0302\u0303x')).toBe('e\u0301\u0302⟨U+0303 combining mark⟩x');
    expect(showInvisible('rm \u0336-rf')).toBe('rm ⟨U+0336 combining mark⟩-rf');
  });

  it('on one line, every newline is counted', () => {
    expect(showInvisible('cd x\nnpm test', { isOneLine: true })).toBe('cd x⟨1 newline⟩npm test');
  });

  it('shows a whole escape sequence as one unit, and an OSC 52 clipboard write inertly', () => {
    const osc = `${ESC}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007`;
    expect(showInvisible(`echo ${ESC}[2J${ESC}[1Gok`)).toBe('echo ⟨^[[2J + ^[[1G⟩ok');
    expect(showInvisible(`x${osc}y`)).toBe('x⟨^[]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA=…⟩y');
    // An OSC that never ends is its introducer alone; the rest is ordinary text.
    expect(showInvisible(`x${ESC}]0;title`)).toBe('x⟨^[]⟩0;title');
  });

  it('cannot be forged: the marker brackets in the text are themselves shown as code points', () => {
    const output = showInvisible('rm -rf ~ ⟨8,000 spaces⟩');
    expect(output).toBe(
      'rm -rf ~ ⟨U+27E8 left angle bracket⟩8,000 spaces⟨U+27E9 right angle bracket⟩',
    );
    // An escape sequence cannot carry a bracket into its marker either.
    expect(showInvisible(`${ESC}]0;⟩ fake⟨\u0007`)).not.toMatch(/⟨[^⟨⟩]*⟨/u);
  });
});
