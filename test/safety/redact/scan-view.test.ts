import { describe, expect, it } from 'vitest';
import { createScanView } from '../../../src/safety/redact/scan-view.js';

const ESC = '\u001b';

describe('createScanView', () => {
  it('is the text itself when there is nothing to take out', () => {
    const text = 'const a = 1;\nconst b = a * 2;\n';
    const view = createScanView(text);
    expect(view.text).toBe(text);
    expect(view.toOriginal({ start: 3, end: 9 })).toEqual({ start: 3, end: 9 });
  });

  it('takes terminal escapes out and maps a range back over them', () => {
    const text = `${ESC}[1m${ESC}[32mabc${ESC}[0mdef${ESC}]8;;https://x${ESC}\\ghi\n`;
    const view = createScanView(text);
    expect(view.text).toBe('abcdefghi\n');
    // `abcdef` in the view is `abc ESC[0m def` in the original, the escape inside included.
    const range = view.toOriginal({ start: 0, end: 6 });
    expect(text.slice(range.start, range.end)).toBe(`abc${ESC}[0mdef`);
  });

  it('joins string concatenations, across a line break, and maps the joined literal back', () => {
    const text = 'const t = "abc" +\n  "def" . \'x\' + \'y\';\n';
    const view = createScanView(text);
    expect(view.text).toBe('const t = "abcdef" . \'xy\';\n');
    const range = view.toOriginal({ start: 11, end: 17 });
    expect(text.slice(range.start, range.end)).toBe('abc" +\n  "def');
  });

  it('keeps a cut out of a range that only touches it', () => {
    const text = '"abc" + "def"';
    const view = createScanView(text);
    expect(view.text).toBe('"abcdef"');
    expect(view.toOriginal({ start: 1, end: 4 })).toEqual({ start: 1, end: 4 });
    const after = view.toOriginal({ start: 4, end: 7 });
    expect(text.slice(after.start, after.end)).toBe('def');
  });

  it('leaves literals of different quotes and arithmetic alone', () => {
    for (const text of ['"a" + \'b\'', 'x = 1 + 2', 'It ends. "Then" it goes on.']) {
      expect(createScanView(text).text).toBe(text);
    }
  });

  it('joins literals on lines of their own, after a backslash too, as a reading that may be wrong', () => {
    for (const text of ['t = ("ghp_ab"\n  "cd")\n', 'T = "ghp_ab" \\\n  "cd"\n']) {
      const view = createScanView(text);
      expect(view.text, text).toContain('"ghp_abcd"');
      expect(view.hasSoftEdits).toBe(true);
      expect(createScanView(text, false).text).toBe(text);
    }
  });

  it('reads a percent escape both ways: decoded, and as written', () => {
    const text = "smbclient //srv/share -U 'backup%64Fb2Sbh'";
    expect(createScanView(text).text).toBe("smbclient //srv/share -U 'backupdFb2Sbh'");
    expect(createScanView(text).hasSoftEdits).toBe(true);
    expect(createScanView(text, false).text).toBe(text);
  });
});
