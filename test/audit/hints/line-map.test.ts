import { describe, expect, it } from 'vitest';
import { LineMap } from '../../../src/audit/hints/line-map.js';

describe('LineMap', () => {
  const text = 'one\ntwo\r\n\nfour';
  const map = new LineMap(text);

  it.each([
    [0, 1],
    [3, 1],
    [4, 2],
    [8, 2],
    [9, 3],
    [10, 4],
    [13, 4],
  ])('puts offset %i on line %i', (offset, line) => {
    expect(map.lineOf(offset)).toBe(line);
  });

  it.each([
    [1, 'one'],
    [2, 'two'],
    [3, ''],
    [4, 'four'],
  ])('reads line %i as %j without its line break', (line, expected) => {
    expect(map.textOf(line)).toBe(expected);
  });

  it('counts lines, clamps out-of-range lines, and handles a trailing newline', () => {
    expect(map.lineCount).toBe(4);
    expect(map.startOf(0)).toBe(0);
    expect(map.textOf(99)).toBe('four');
    const trailing = new LineMap('a\n');
    expect(trailing.lineCount).toBe(2);
    expect(trailing.textOf(2)).toBe('');
    expect(new LineMap('').lineCount).toBe(1);
  });

  it('answers in any order after a partial scan', () => {
    const big = new LineMap(Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n'));
    expect(big.textOf(10)).toBe('line 10');
    expect(big.lineOf(big.startOf(900) + 2)).toBe(900);
    expect(big.textOf(5)).toBe('line 5');
    expect(big.lineCount).toBe(1000);
  });

  it('tells whether a line exists, as the line count does', () => {
    for (const text of ['', 'a', 'a\n', 'a\nb', 'a\r\nb\r\n', '\n\n']) {
      const count = new LineMap(text).lineCount;
      const map = new LineMap(text);
      for (let line = 1; line <= count + 2; line += 1) {
        expect(map.hasLine(line), `${JSON.stringify(text)} line ${line}`).toBe(line <= count);
      }
    }
  });
});
