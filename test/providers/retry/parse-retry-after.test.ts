import { describe, expect, it } from 'vitest';
import {
  describeWait,
  parseRetryAfter,
  parseRetryAfterMs,
} from '../../../src/providers/retry/parse-retry-after.js';

describe('Retry-After, as the server asks', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it.each<[string | null | undefined, number | undefined]>([
    ['2', 2000],
    ['1.5', 1500],
    [' 30 ', 30_000],
    ['999999999', 999_999_999_000],
    ['Sun, 22 Nov 2026 10:10:00 GMT', 600_000],
    ['Sun, 22 Nov 2026 09:00:00 GMT', 0],
    ['', undefined],
    ['soon', undefined],
    ['-5', undefined],
    [null, undefined],
  ])('retry-after %j is %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each<[string | null, number | undefined]>([
    ['2500', 2500],
    ['0', 0],
    ['1e12', 1e12],
    ['', undefined],
    ['-1', undefined],
    ['abc', undefined],
    [null, undefined],
  ])('retry-after-ms %j is %j ms', (value, ms) => {
    expect(parseRetryAfterMs(value)).toBe(ms);
  });

  it.each<[number, string]>([
    [1, '1 s'],
    [59_000, '59 s'],
    [60_000, '1 min'],
    [600_000, '10 min'],
    [3 * 3_600_000, '3 h'],
    [11 * 86_400_000, '11 days'],
  ])('%d ms reads as %s', (ms, text) => {
    expect(describeWait(ms)).toBe(text);
  });
});
