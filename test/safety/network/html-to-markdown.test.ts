import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/safety/network/index.js';

describe('htmlToMarkdown', () => {
  it('converts headings, links, lists and code', () => {
    const markdown = htmlToMarkdown(
      '<h1>Title</h1><p>See <a href="https://x.example/a">the docs</a>.</p><ul><li>one</li></ul><pre><code>let a = 1;</code></pre>',
    );
    expect(markdown).toContain('# Title');
    expect(markdown).toContain('[the docs](https://x.example/a)');
    expect(markdown).toMatch(/^\*\s+one$/m);
    expect(markdown).toContain('```\nlet a = 1;\n```');
  });

  it('drops scripts and styles', () => {
    const markdown = htmlToMarkdown('<p>kept</p><script>steal()</script><style>p{}</style>');
    expect(markdown).toBe('kept');
  });
});
