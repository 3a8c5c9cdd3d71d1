import { describe, expect, it } from 'vitest';
import {
  createControlNeutralizer,
  neutralizeControl,
  showControlCharacter,
} from '../../../src/shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../../src/shared/terminal/stringify-for-terminal.js';
import { createColors } from '../../../src/cli/terminal.js';

const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);

/** Every code point that must never reach a terminal raw, outside newline and tab handling. */
const CONTROL_CODES: number[] = [
  ...range(0x00, 0x08),
  ...range(0x0b, 0x0c),
  0x0d,
  ...range(0x0e, 0x1f),
  0x7f,
  ...range(0x80, 0x9f),
  0x061c,
  0x200e,
  0x200f,
  ...range(0x202a, 0x202e),
  ...range(0x2066, 0x2069),
];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

/** Any character a terminal would act on, rather than print. */
const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex -- the test looks for exactly these
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('neutralizeControl', () => {
  it.each(CONTROL_CODES.map((code) => [code.toString(16).padStart(4, '0'), code]))(
    'U+%s never survives, and is shown visibly',
    (_, code) => {
      const char = String.fromCharCode(code);
      const shown = neutralizeControl(`a${char}b`);
      expect(shown).not.toMatch(RAW_CONTROL);
      expect(shown).not.toBe('ab');
      expect(shown).toBe(`a${showControlCharacter(char)}b`);
    },
  );

  it('shows C0 in caret notation, DEL as ^?, C1 and bidirectional controls as code points', () => {
    expect(neutralizeControl(`${ESC}[2K`)).toBe('^[[2K');
    expect(neutralizeControl(String.fromCharCode(0))).toBe('^@');
    expect(neutralizeControl(BEL)).toBe('^G');
    expect(neutralizeControl(String.fromCharCode(0x7f))).toBe('^?');
    expect(neutralizeControl('\u009b31m')).toBe('<U+009B>31m');
    expect(neutralizeControl('abc\u202Efed')).toBe('abc<U+202E>fed');
    expect(neutralizeControl('\u2066x\u2069')).toBe('<U+2066>x<U+2069>');
    expect(neutralizeControl('\u061c\u200e\u200f')).toBe('<U+061C><U+200E><U+200F>');
  });

  it('defuses the attacks: a line erase before a fake command, OSC 52, a hidden diff line', () => {
    const command = `touch PWNED #${ESC}[2K${ESC}[1G$ npm test`;
    expect(neutralizeControl(command)).toBe('touch PWNED #^[[2K^[[1G$ npm test');
    const clipboard = `${ESC}]52;c;${Buffer.from('rm -rf ~').toString('base64')}${BEL}`;
    expect(neutralizeControl(`hello ${clipboard}world`)).toBe('hello ^[]52;c;cm0gLXJmIH4=^Gworld');
    expect(neutralizeControl(`+safe line\r+evil line`)).toBe('+safe line^M+evil line');
  });

  it('defuses a hyperlink that hides its target, DCS and APC strings, and 8-bit CSI', () => {
    const link = `${ESC}]8;;https://evil.example/x${ESC}\\docs.python.org${ESC}]8;;${ESC}\\`;
    const shown = neutralizeControl(link);
    expect(shown).toContain('https://evil.example/x');
    // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
    expect(shown).not.toMatch(/[\u001b\u0007\u0080-\u009f]/u);
    const strings = `${ESC}Pq#0;2;0;0;0${ESC}\\${ESC}_hidden${ESC}\\\u009b2J`;
    expect(neutralizeControl(strings)).toBe('^[Pq#0;2;0;0;0^[\\^[_hidden^[\\<U+009B>2J');
  });

  it('keeps newline and tab; reads CRLF as a line break unless asked to keep CRs', () => {
    expect(neutralizeControl('a\tb\nc')).toBe('a\tb\nc');
    expect(neutralizeControl('one\r\ntwo\r\n')).toBe('one\ntwo\n');
    expect(neutralizeControl('one\rtwo')).toBe('one^Mtwo');
    expect(neutralizeControl('one\r\ntwo', { lineBreaks: 'keep' })).toBe('one^M\ntwo');
    expect(neutralizeControl('one\r\ntwo\nthree\tfour', { lineBreaks: 'show' })).toBe(
      'one^M^Jtwo^Jthree\tfour',
    );
  });

  it('leaves plain, wide and emoji text unchanged', () => {
    const texts = [
      'plain ASCII, punctuation !@#$%^&*()[]{}~ and ^[ written by hand',
      'café naïve Ελληνικά русский עברית العربية',
      '日本語のテキスト 한국어 中文',
      'emoji 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 ❤️ with ZWJ and variation selectors',
      'e\u0301 combining accent, zero width space\u200b and joiner\u200d',
    ];
    for (const text of texts) expect(neutralizeControl(text)).toBe(text);
  });

  it('is idempotent', () => {
    const hostile = `a${ESC}[31m\r\n\u202e\u0085${String.fromCharCode(0x7f)}\rz`;
    for (const lineBreaks of ['normalize', 'keep', 'show'] as const) {
      const once = neutralizeControl(hostile, { lineBreaks });
      expect(neutralizeControl(once, { lineBreaks })).toBe(once);
    }
  });

  it("keeps oy's own colours when the colour is applied after", () => {
    const c = createColors(true);
    const coloured = c.red(neutralizeControl(`bad${ESC}[8mhidden`));
    expect(coloured).toBe(`${ESC}[31mbad^[[8mhidden${ESC}[39m`);
    // The only escapes left are the two picocolors wrote.
    expect(coloured.split(ESC).length - 1).toBe(2);
  });

  it('has a visible form only for control characters', () => {
    expect(showControlCharacter('a')).toBeUndefined();
    expect(showControlCharacter('\t')).toBeUndefined();
    expect(showControlCharacter('👍')).toBeUndefined();
    expect(showControlCharacter(ESC)).toBe('^[');
  });
});

describe('createControlNeutralizer', () => {
  it('reads a CRLF split across pieces as one line break, and shows a CR left at the end', () => {
    const stream = createControlNeutralizer();
    const out = ['one\r', '\ntwo\r', 'three', `${ESC}`, '[2K\r'].map((piece) => stream.push(piece));
    expect(out.join('') + stream.end()).toBe('one\ntwo^Mthree^[[2K^M');
  });

  it('gives the same result as the whole text at once, however it is split', () => {
    const text = `a\r\nb\r${ESC}]52;c;eA==${BEL}c\r\n\u202ed\r`;
    for (let cut = 0; cut <= text.length; cut += 1) {
      const stream = createControlNeutralizer();
      const out = stream.push(text.slice(0, cut)) + stream.push(text.slice(cut)) + stream.end();
      expect(out).toBe(neutralizeControl(text));
    }
  });
});

describe('stringifyForTerminal', () => {
  it('escapes what JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { name: `a${ESC}b\u009b\u202e${String.fromCharCode(0x7f)}c`, list: ['\u2066'] };
    const json = stringifyForTerminal(value, 2);
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(value);
    // A control: plain JSON.stringify leaves these raw.
    expect(JSON.stringify(value)).toMatch(RAW_CONTROL);
  });

  it('changes nothing in ordinary JSON', () => {
    const value = { text: 'café 日本 👍🏽', n: 1, nested: [true, null] };
    expect(stringifyForTerminal(value, 2)).toBe(JSON.stringify(value, null, 2));
  });
});

console.log(`terminal neutralisation unit suite: ${CONTROL_CODES.length + 11} cases`);
