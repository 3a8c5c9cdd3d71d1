import { describe, expect, test } from 'vitest';
import { truncateText } from '../../../src/audit/review/truncate-text.js';

describe('truncateText', () => {
  test('text within the limit is unchanged', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('', 0)).toBe('');
  });

  test('a cut ends in an ellipsis that counts towards the limit', () => {
    expect(truncateText('abcdef', 4)).toBe('abc…');
    expect(truncateText('abcdef', 4)).toHaveLength(4);
  });

  test('at 0 or 1 only the ellipsis is left', () => {
    expect(truncateText('abc', 0)).toBe('…');
    expect(truncateText('abc', 1)).toBe('…');
  });

  test('a surrogate pair is never split', () => {
    // '🔥' is two UTF-16 units; a cut at 2 would keep half of it.
    expect(truncateText('a🔥bc', 3)).toBe('a…');
    expect(truncateText('a🔥bc', 4)).toBe('a🔥…');
  });
});
