import { describe, expect, it } from 'vitest';
import { findGitConfigValue } from '../../../src/shared/git/find-git-config-value.js';

describe('findGitConfigValue', () => {
  it('reads a key case-insensitively in its section only, last value winning', () => {
    const text = [
      '[user]',
      '  excludesFile = wrong-section',
      '[Core]',
      '  ExcludesFile = first',
      '[core "sub"]',
      '  excludesfile = subsection',
      '[core]',
      '\texcludesfile = second',
    ].join('\n');
    expect(findGitConfigValue(text, 'core', 'excludesFile')).toBe('second');
  });

  it('handles quotes, escapes, comments and continued lines', () => {
    expect(
      findGitConfigValue('[core]\nexcludesfile = "~/my ignores" # note', 'core', 'excludesfile'),
    ).toBe('~/my ignores');
    expect(findGitConfigValue('[core]\nexcludesfile = a\\"b ; c', 'core', 'excludesfile')).toBe(
      'a"b',
    );
    expect(findGitConfigValue('[core]\nexcludesfile = /a/\\\nb', 'core', 'excludesfile')).toBe(
      '/a/b',
    );
    expect(findGitConfigValue('[core] excludesfile = inline', 'core', 'excludesfile')).toBe(
      'inline',
    );
  });

  it('returns undefined when absent or boolean', () => {
    expect(findGitConfigValue('[core]\nbare = x', 'core', 'excludesfile')).toBeUndefined();
    expect(findGitConfigValue('[core]\nexcludesfile', 'core', 'excludesfile')).toBeUndefined();
    expect(findGitConfigValue('', 'core', 'excludesfile')).toBeUndefined();
  });
});
