import { describe, expect, it } from 'vitest';
import { createMarkdownStream } from '../../../../src/cli/chat/render-markdown-stream.js';
import { renderTable } from '../../../../src/cli/chat/render/render-table.js';
import { visibleWidth, wrapText } from '../../../../src/cli/chat/render/wrap-text.js';
import { createColors } from '../../../../src/cli/terminal.js';
import { seededRandom } from '../../../support/seeded-random.js';
import { ScreenModel } from '../line-editor/fake-terminal.js';

const plain = createColors(false);
const colour = createColors(true);

/** A terminal that translates a line break to CR LF, as the chat's terminal does (ONLCR). */
function liveScreen(columns: number, rows = 24) {
  const screen = new ScreenModel(columns);
  const out = { write: (text: string) => screen.write(text.replaceAll('\n', '\r\n')) };
  const stream = createMarkdownStream(out, plain, true, {
    columns: () => columns,
    rows: () => rows,
  });
  return { screen, stream };
}

const WORDS = ['a', 'to', 'the', 'word', 'wrapping', 'terminal', 'antidisestablishmentarianism'];

describe('chat Markdown layout', () => {
  it('wraps at spaces: no row too wide, every word whole unless wider than a row', () => {
    const random = seededRandom(7);
    let cases = 0;
    for (let run = 0; run < 40; run += 1) {
      const width = 12 + Math.floor(random() * 50);
      const words = Array.from(
        { length: 5 + Math.floor(random() * 30) },
        () => WORDS[Math.floor(random() * WORDS.length)]!,
      );
      const rows = wrapText(words.join(' '), width);
      for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(width);
      if (words.every((word) => word.length <= width))
        expect(rows.join(' ').split(' ')).toEqual(words);
      else expect(rows.join('').replaceAll(' ', '')).toBe(words.join(''));
      cases += 1;
    }
    console.log(`wrap: ${cases} cases`);
  });

  it('colour takes no width, and a prefix indents the rows it wraps to', () => {
    const text = `${colour.bold('bold words')} and more plain words here`;
    const rows = wrapText(text, 16, { firstPrefix: '• ' });
    expect(rows.join('')).toContain(colour.bold('bold words'));
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(16);
    expect(rows[0]!.startsWith('• ')).toBe(true);
    for (const row of rows.slice(1)) expect(row.startsWith('  ')).toBe(true);
  });

  it('draws a table aligned and fitted to the width, cells wrapped', () => {
    const lines = [
      '| Name | Notes | n |',
      '|---|---|--:|',
      '| read | reads one file of the workspace, numbered | 1 |',
      '| bash | runs | 22 |',
    ];
    const rows = renderTable(lines, 30, plain, (cell) => cell);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(30);
    const bars = new Set(rows.filter((row) => row.includes('│')).map((row) => row.indexOf('│')));
    expect(bars.size).toBe(1);
    expect(rows[1]).toMatch(/^─+┼─+┼─+$/u);
    expect(rows.join('\n')).toContain('22');
    expect(rows.length).toBeGreaterThan(4);
  });

  it('shows an unfinished line as it comes, then redraws it rendered in place', () => {
    const { screen, stream } = liveScreen(40);
    stream.write('Some **bold');
    expect(screen.lines()).toEqual(['Some **bold']);
    stream.write(' text** and a long tail that wraps past forty');
    expect(screen.lines()).toHaveLength(2);
    stream.write(' columns.\n\nNext.');
    expect(screen.lines()).toEqual([
      'Some bold text and a long tail that',
      'wraps past forty columns.',
      '',
      'Next.',
    ]);
    stream.endLine();
    stream.end();
    expect(screen.lines().at(-1)).toBe('Next.');
  });

  it('builds a table in place and draws it aligned when it ends', () => {
    const { screen, stream } = liveScreen(40);
    stream.write('| a | bb |\n|---|---|\n| ccc | d |\n');
    expect(screen.lines()).toEqual(['| a | bb |', '|---|---|', '| ccc | d |']);
    stream.write('done\n');
    expect(screen.lines()).toEqual(['a   │ bb', '────┼───', 'ccc │ d', 'done']);
  });

  it('without a screen (a file or pipe) nothing is drawn in place and nothing wraps', () => {
    let out = '';
    const stream = createMarkdownStream({ write: (text: string) => (out += text) }, plain, true);
    stream.write('partial');
    expect(out).toBe('');
    stream.write(` ${'long '.repeat(30)}\n`);
    expect(out.split('\n')).toHaveLength(2);
  });
});
