import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/safety/network/index.js';

const options = { timeoutMs: 20_000, signal: new AbortController().signal };

describe('htmlToMarkdown', () => {
  it('converts headings, links, lists and code', async () => {
    const { text: markdown, format } = await htmlToMarkdown(
      '<h1>Title</h1><p>See <a href="https://x.example/a">the docs</a>.</p><ul><li>one</li></ul><pre><code>let a = 1;</code></pre>',
      options,
    );
    expect(format).toBe('markdown');
    expect(markdown).toContain('# Title');
    expect(markdown).toContain('[the docs](https://x.example/a)');
    expect(markdown).toMatch(/^\*\s+one$/m);
    expect(markdown).toContain('```\nlet a = 1;\n```');
  });

  it('drops scripts and styles', async () => {
    const markdown = await htmlToMarkdown(
      '<p>kept</p><script>steal()</script><style>p{}</style>',
      options,
    );
    expect(markdown.text).toBe('kept');
  });
});
