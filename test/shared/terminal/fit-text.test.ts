import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fitBlock, fitLine } from '../../../src/shared/terminal/fit-text.js';

/** Printable text with line breaks, fresh per run: nothing in it is invisible, so shown = original. */
function randomText(chars: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 ;|&$"\'=-_/.';
  const bytes = randomBytes(chars);
  let text = '';
  for (let index = 0; index < chars; index += 1) {
    const byte = bytes[index]!;
    text += byte % 40 === 0 ? '\n' : alphabet[byte % alphabet.length];
  }
  // No run of spaces or newlines long enough to be counted as padding.
  return text.replace(/ {2,}/gu, ' ').replace(/\n{2,}/gu, '\n');
}

describe('fitBlock', () => {
  it('keeps a short text whole', () => {
    const fitted = fitBlock('npm test\nnpm run lint', { columns: 80, headRows: 4, tailRows: 3 });
    expect(fitted).toEqual({
      head: ['npm test', 'npm run lint'],
      hiddenChars: 0,
      hiddenLines: 0,
      totalChars: 21,
      hasMarkers: false,
    });
  });

  it.each([
    ['lines', 50_000],
    ['one line', 50_000],
  ] as const)(
    'a 50,000-character text on %s: head and tail are the text’s own ends, the rest counted exactly',
    (shape, length) => {
      const text =
        shape === 'one line'
          ? 'x'.repeat(length - 20) + randomBytes(10).toString('hex')
          : randomText(length);
      const budget = { columns: randomInt(40, 200), headRows: 10, tailRows: 9, prefixColumns: 2 };
      const fitted = fitBlock(text, budget);
      expect(fitted.tail).toBeDefined();
      const head = fitted.head.join('\n');
      const tail = fitted.tail!.join('\n');
      expect(text.startsWith(head)).toBe(true);
      expect(text.endsWith(tail)).toBe(true);
      expect(fitted.totalChars).toBe(text.length);
      // What is hidden is exactly what lies between, line breaks included.
      const middle = text.slice(head.length, text.length - tail.length);
      const boundaryBreaks =
        (fitted.head.length > 0 && text[head.length] === '\n' ? 1 : 0) +
        (fitted.tail!.length > 0 && text[text.length - tail.length - 1] === '\n' ? 1 : 0);
      expect(fitted.hiddenChars).toBe(middle.length - boundaryBreaks);
      // Within the rows asked for.
      const rows = [...fitted.head, ...fitted.tail!].reduce(
        (sum, line) => sum + Math.max(1, Math.ceil((line.length + 2) / budget.columns)),
        0,
      );
      expect(rows).toBeLessThanOrEqual(budget.headRows + budget.tailRows);
      // The end of the text, where a destructive part would sit, is shown.
      expect(tail.endsWith(text.slice(-10))).toBe(true);
    },
  );

  it('a dangerous part in the middle of 50,000 characters is not shown, and is counted', () => {
    const danger = `rm -rf ~/${randomBytes(4).toString('hex')}`;
    const text = `${'echo safe; '.repeat(2_300)}${danger}; ${'echo safe; '.repeat(2_240)}`;
    const fitted = fitBlock(text, { columns: 160, headRows: 10, tailRows: 9 });
    const [head, tail] = [fitted.head.join('\n'), fitted.tail!.join('\n')];
    expect(`${head}\n${tail}`).not.toContain(danger);
    expect(fitted.hiddenChars).toBeGreaterThan(40_000);
    // One line: what is hidden is exactly what lies between the head and the tail.
    expect(fitted.hiddenChars).toBe(text.length - head.length - tail.length);
    expect(text.slice(head.length, text.length - tail.length)).toContain(danger);
  });

  it('padding is a marker, never cut in half', () => {
    const text = `a${'\u00a0'.repeat(60_000)}b`;
    const fitted = fitBlock(text, { columns: 80, headRows: 1, tailRows: 1 });
    expect(fitted.head).toEqual(['a⟨60,000 × U+00A0 no-break space⟩b']);
    expect(fitted.hasMarkers).toBe(true);
  });
});

describe('fitLine', () => {
  it('keeps what fits, with invisible runs counted', () => {
    expect(fitLine('npm test', 80)).toBe('npm test');
    expect(fitLine(`touch x;${' '.repeat(8000)}npm test`, 80)).toBe(
      'touch x;⟨8,000 spaces⟩npm test',
    );
  });

  it('shows the head and the tail of a long line, and how many characters lie between', () => {
    const text = `SELECT 1; ${'-- x\n'.repeat(10_000)}DROP TABLE users;`;
    const line = fitLine(text, 100);
    expect(line.startsWith('SELECT 1; -- x⟨1 newline⟩')).toBe(true);
    expect(line.endsWith('DROP TABLE users;')).toBe(true);
    expect(line).toMatch(/⟨… [\d,]+ characters not shown …⟩/u);
    expect([...line].length).toBeLessThanOrEqual(100);
    const hidden = Number(/⟨… ([\d,]+) characters/u.exec(line)![1]!.replaceAll(',', ''));
    expect(hidden).toBeGreaterThan(49_000);
    expect(hidden).toBeLessThan(text.length);
  });
});
