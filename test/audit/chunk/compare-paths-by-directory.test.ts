import { describe, expect, it } from 'vitest';
import {
  comparePathsByDirectory,
  isSameDirectory,
  sharedDirectoryDepth,
} from '../../../src/audit/chunk/compare-paths-by-directory.js';

describe('comparePathsByDirectory', () => {
  it('keeps each directory’s files together, before its subdirectories, each subtree contiguous', () => {
    const paths = [
      'a/c/z.ts',
      'b.ts',
      'a/b/y.ts',
      'a/x.ts',
      'a/b/c/d.ts',
      'a/b.ts',
      'a-b/q.ts',
      'A.ts',
      'a/b/a.ts',
    ];
    expect(paths.sort(comparePathsByDirectory)).toEqual([
      'A.ts',
      'b.ts',
      'a/b.ts',
      'a/x.ts',
      'a/b/a.ts',
      'a/b/y.ts',
      'a/b/c/d.ts',
      'a/c/z.ts',
      'a-b/q.ts',
    ]);
  });

  it('orders by code unit, not by locale', () => {
    expect(['src/é.ts', 'src/z.ts', 'src/Z.ts'].sort(comparePathsByDirectory)).toEqual([
      'src/Z.ts',
      'src/z.ts',
      'src/é.ts',
    ]);
  });
});

describe('sharedDirectoryDepth and isSameDirectory', () => {
  it('count the directory segments two paths share', () => {
    expect(sharedDirectoryDepth('a/b/x.ts', 'a/c/y.ts')).toBe(1);
    expect(sharedDirectoryDepth('a/b/x.ts', 'a/b/y.ts')).toBe(2);
    expect(sharedDirectoryDepth('x.ts', 'a/y.ts')).toBe(0);
    expect(sharedDirectoryDepth('a/x', 'a/x/y.ts')).toBe(1);
    expect(isSameDirectory('a/b/x.ts', 'a/b/y.ts')).toBe(true);
    expect(isSameDirectory('x.ts', 'y.ts')).toBe(true);
    expect(isSameDirectory('a/x.ts', 'a/b/y.ts')).toBe(false);
  });
});
