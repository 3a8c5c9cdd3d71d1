import { describe, expect, test } from 'vitest';
import {
  escapeMarkdownLine,
  escapeMarkdownText,
  formatCodeBlock,
  formatCodeSpan,
  formatTable,
} from '../../../../src/audit/report/markdown/escape-markdown.js';
import {
  listNodes,
  parseMarkdown,
  textOf,
  type MarkdownNode,
} from '../../../support/parse-markdown.js';

// Text that, unescaped, would become Markdown or HTML syntax of its own.
const HOSTILE_LINES = [
  '# not a heading',
  '## Coverage',
  '- not a list',
  '+ not a list',
  '* not a list',
  '1. not a list',
  '2) not a list',
  '> not a quote',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<!-- comment -->',
  '&lt;entity&gt; &amp;',
  '[link](http://evil.example)',
  '![image](http://evil.example/x.png)',
  '[ref]: http://evil.example',
  '*em* _em_ **strong** __strong__',
  '~~struck~~',
  '`code` and ``more``',
  '``` not a fence',
  'a | b | c',
  '$x^2$ and $$y$$',
  '===',
  '---',
  '***',
  'back\\slash \\| and \\`',
  '0.1.0 is a version',
  '{{ template }} %{x}',
  'Trojan \u202Esource\u2066 and zero\u200Bwidth and \u001B[31mred',
];

async function paragraphText(markdown: string): Promise<string> {
  const root = await parseMarkdown(markdown);
  expect(root.children?.map((node) => node.type)).toEqual(['paragraph']);
  return textOf(root);
}

function expectNoHtml(root: MarkdownNode): void {
  expect(listNodes(root).filter((node) => node.type === 'html')).toEqual([]);
}

describe('escapeMarkdownLine', () => {
  test.each(HOSTILE_LINES)('renders %j as exactly that text in one paragraph', async (line) => {
    const markdown = escapeMarkdownLine(line);
    expectNoHtml(await parseMarkdown(markdown));
    expect(await paragraphText(markdown)).toBe(
      line
        .replace('\u202E', '[U+202E]')
        .replace('\u2066', '[U+2066]')
        .replace('\u200B', '[U+200B]')
        .replace('\u001B', '[U+001B]'),
    );
  });

  test('joins lines so a title cannot start a block on its second line', async () => {
    const markdown = escapeMarkdownLine('Title\n## Injected\r\n- item\r> quote');
    expect(markdown).not.toContain('\n');
    expect(await paragraphText(markdown)).toBe('Title ## Injected - item > quote');
  });

  test('never leaves a raw control or bidirectional character', () => {
    const markdown = escapeMarkdownLine('a\u202Eb\u0000c\u2069d\uFEFF');
    expect(markdown).toBe('a\\[U+202E\\]b\\[U+0000\\]c\\[U+2069\\]d\\[U+FEFF\\]');
  });
});

describe('escapeMarkdownText', () => {
  test('keeps line breaks but no line can start a block', async () => {
    const text = HOSTILE_LINES.join('\n');
    const root = await parseMarkdown(escapeMarkdownText(text));
    expect(root.children?.map((node) => node.type)).toEqual(['paragraph']);
    expectNoHtml(root);
    expect(textOf(root).split('\n')).toHaveLength(HOSTILE_LINES.length);
  });

  test('with keepsCodeSpans, keeps one-line code spans as code and escapes the rest', async () => {
    const markdown = escapeMarkdownText('Call `execFile("git", [ref])` and not <b>`exec`</b>.', {
      keepsCodeSpans: true,
    });
    const root = await parseMarkdown(markdown);
    expectNoHtml(root);
    const code = listNodes(root).filter((node) => node.type === 'inlineCode');
    expect(code.map((node) => node.value)).toEqual(['execFile("git", [ref])', 'exec']);
    expect(textOf(root)).toBe('Call execFile("git", [ref]) and not <b>exec</b>.');
  });

  test('with keepsCodeSpans, an unclosed or multi-line backtick stays literal', async () => {
    const markdown = escapeMarkdownText('an `unclosed tick\n# and `a heading`', {
      keepsCodeSpans: true,
    });
    const root = await parseMarkdown(markdown);
    expect(root.children?.map((node) => node.type)).toEqual(['paragraph']);
    expect(textOf(root)).toBe('an `unclosed tick\n# and a heading');
  });

  test('without keepsCodeSpans, backticks are literal', async () => {
    expect(await paragraphText(escapeMarkdownText('use `eval`'))).toBe('use `eval`');
  });
});

describe('formatCodeSpan', () => {
  test.each([
    'plain',
    'a`b',
    'a``b```c',
    '`leading',
    'trailing`',
    ' spaced ',
    '<script>',
    '# x',
    'a|b',
  ])('holds %j verbatim', async (text) => {
    const root = await parseMarkdown(`x ${formatCodeSpan(text)} y`);
    const code = listNodes(root).filter((node) => node.type === 'inlineCode');
    expect(code.map((node) => node.value)).toEqual([text]);
  });

  test('puts a multi-line text on one line', () => {
    expect(formatCodeSpan('a\nb')).toBe('`a b`');
  });
});

describe('formatCodeBlock', () => {
  test.each([
    'exec(`ls ${dir}`)',
    '```\nnot the end\n```',
    '````js\nx\n````\n``',
    '~~~\ntilde\n~~~',
    '</code></pre><script>alert(1)</script>',
    '    indented\n\ttabbed',
  ])('holds %j verbatim and ends where it should', async (text) => {
    const root = await parseMarkdown(`${formatCodeBlock(text)}\n\n## After`);
    expect(root.children?.map((node) => node.type)).toEqual(['code', 'heading']);
    expect(root.children?.[0]?.value).toBe(text);
    expect(textOf(root.children![1]!)).toBe('After');
  });

  test('its fence is longer than any backtick run inside', () => {
    const block = formatCodeBlock('a ````` b');
    expect(block.startsWith('``````text\n')).toBe(true);
    expect(block.endsWith('\n``````')).toBe(true);
  });

  test('shows bidirectional characters by name', () => {
    expect(formatCodeBlock('if (a\u202E) {')).toContain('if (a[U+202E]) {');
  });
});

describe('formatTable', () => {
  test('keeps every row at its column count whatever the cells hold', async () => {
    const rows = HOSTILE_LINES.map((line) => [
      escapeMarkdownLine(line),
      escapeMarkdownLine(`${line}\nsecond line`),
    ]);
    const root = await parseMarkdown(formatTable(['One', 'Two'], rows));
    expect(root.children?.map((node) => node.type)).toEqual(['table']);
    expectNoHtml(root);
    const tableRows = root.children![0]!.children!;
    expect(tableRows).toHaveLength(HOSTILE_LINES.length + 1);
    for (const row of tableRows) expect(row.children).toHaveLength(2);
    const firstColumn = tableRows.slice(1).map((row) => textOf(row.children![0]!));
    expect(firstColumn.slice(0, 27)).toEqual(HOSTILE_LINES.slice(0, 27));
  });
});
