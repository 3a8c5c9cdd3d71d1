import { describe, expect, it } from 'vitest';
import { createIgnoreMatcher } from '../../../src/shared/ignore/ignore-matcher.js';
import { rebaseIgnorePattern } from '../../../src/shared/ignore/rebase-ignore-pattern.js';

describe('rebaseIgnorePattern', () => {
  it('keeps root patterns, drops blanks and comments', () => {
    expect(rebaseIgnorePattern('*.log', '')).toBe('*.log');
    expect(rebaseIgnorePattern('', 'a')).toBeNull();
    expect(rebaseIgnorePattern('# note', 'a')).toBeNull();
    expect(rebaseIgnorePattern('  \r', 'a')).toBeNull();
  });

  it('anchors a pattern with a slash to its directory, and lets a bare name match at any depth', () => {
    expect(rebaseIgnorePattern('/local.txt', 'src/nested')).toBe('src/nested/local.txt');
    expect(rebaseIgnorePattern('lib/x.js', 'src')).toBe('src/lib/x.js');
    expect(rebaseIgnorePattern('*.tmp', 'src')).toBe('src/**/*.tmp');
    expect(rebaseIgnorePattern('cache/', 'src')).toBe('src/**/cache/');
    expect(rebaseIgnorePattern('**/gen', 'src')).toBe('src/**/gen');
    expect(rebaseIgnorePattern('!keep.tmp\r', 'src')).toBe('!src/**/keep.tmp');
  });

  it('escapes glob characters and a leading # or ! in the directory name', () => {
    expect(rebaseIgnorePattern('x', 'a[1]*?')).toBe('a\\[1\\]\\*\\?/**/x');
    expect(rebaseIgnorePattern('x', '#dir')).toBe('\\#dir/**/x');
    expect(rebaseIgnorePattern('x', '!dir')).toBe('\\!dir/**/x');
  });
});

describe('createIgnoreMatcher', () => {
  it('lets a deeper file re-include what a shallower one excluded, as git does', () => {
    const matcher = createIgnoreMatcher();
    matcher.addFile('cache/\n*.log\n');
    matcher.addFile('!cache/\n!keep.log\n', 'src');
    expect(matcher.ignores('cache', true)).toBe(true);
    expect(matcher.ignores('src/cache', true)).toBe(false);
    expect(matcher.ignores('src/cache/x.txt', false)).toBe(false);
    expect(matcher.ignores('src/a.log', false)).toBe(true);
    expect(matcher.ignores('src/deep/keep.log', false)).toBe(false);
    expect(matcher.ignores('keep.log', false)).toBe(true);
  });

  it('matches case-sensitively, and treats a literal bracketed directory literally', () => {
    const matcher = createIgnoreMatcher();
    matcher.addFile('*.LOG\n');
    matcher.addFile('x\n', 'd[1]');
    expect(matcher.ignores('a.log', false)).toBe(false);
    expect(matcher.ignores('a.LOG', false)).toBe(true);
    expect(matcher.ignores('d[1]/x', false)).toBe(true);
    expect(matcher.ignores('d1/x', false)).toBe(false);
  });

  it('matches nothing when empty, and never throws on an odd path', () => {
    const matcher = createIgnoreMatcher();
    expect(matcher.isEmpty).toBe(true);
    expect(matcher.ignores('a', false)).toBe(false);
    matcher.addPatterns(['*', '']);
    expect(matcher.isEmpty).toBe(false);
    expect(matcher.ignores('./x', false)).toBe(false);
    expect(matcher.ignores('/abs', false)).toBe(false);
    expect(matcher.ignores('line\nbreak', false)).toBe(true);
  });
});
