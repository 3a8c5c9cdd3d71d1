import { describe, expect, it } from 'vitest';
import { renderDiff, summarizeDiff } from '../../../src/agent/tools/render-diff.js';

describe('renderDiff', () => {
  it('shows a change as a git-style hunk', () => {
    const diff = renderDiff('src/a.ts', 'one\ntwo\nthree\n', 'one\n2\nthree\n');
    expect(diff).toBe(
      [
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1,3 +1,3 @@',
        ' one',
        '-two',
        '+2',
        ' three',
        '',
      ].join('\n'),
    );
  });

  it('names /dev/null for a created file and for a deleted one', () => {
    const created = renderDiff('new.txt', null, 'hello\n');
    expect(created).toContain('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hello\n');
    const deleted = renderDiff('old.txt', 'bye\n', null);
    expect(deleted).toContain('--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n');
  });

  it('is empty when nothing changes', () => {
    expect(renderDiff('same.txt', 'x\n', 'x\n')).toBe('');
  });

  it('keeps hunks apart when changes are far from each other', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'line two\n').replace('line 27\n', 'line 27!\n');
    expect(renderDiff('f.txt', before, after).match(/^@@ /gmu)).toHaveLength(2);
  });

  it('marks a missing final newline', () => {
    expect(renderDiff('f.txt', 'a', 'a\n')).toContain('\\ No newline at end of file');
  });
});

describe('summarizeDiff', () => {
  it('counts added and removed lines, not the file headers', () => {
    const diff = renderDiff('f.txt', 'a\n-- b\nc\n', 'a\n--- x\nc\nd\n');
    expect(summarizeDiff(diff)).toEqual({ added: 2, removed: 1 });
  });

  it('counts a combined diff of several files', () => {
    const diff = renderDiff('a', null, 'x\ny\n') + renderDiff('b', 'z\n', null);
    expect(summarizeDiff(diff)).toEqual({ added: 2, removed: 1 });
  });
});
