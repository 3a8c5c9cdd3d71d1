import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOutputPath } from '../../../src/safety/paths/resolve-output-path.js';
import { UsageError } from '../../../src/shared/errors.js';

describe('resolveOutputPath', () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-out-')));

  it('resolves a relative path against the workspace root', () => {
    expect(resolveOutputPath(root, 'reports/a.md', '--out')).toBe(
      path.join(root, 'reports', 'a.md'),
    );
  });

  it('accepts an absolute path inside the workspace', () => {
    expect(resolveOutputPath(root, path.join(root, 'a.md'), '--out')).toBe(path.join(root, 'a.md'));
  });

  it.each([
    ['a NUL byte', 'a\0b.md', /NUL/],
    ['an escape', '../x.md', /outside the workspace/],
    ['the root', root, /workspace itself/],
  ])('refuses %s with a usage error naming the flag', (_name, requested, pattern) => {
    const attempt = () => resolveOutputPath(root, requested, '--manifest');
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(pattern);
    expect(attempt).toThrow(/--manifest/);
  });
});
