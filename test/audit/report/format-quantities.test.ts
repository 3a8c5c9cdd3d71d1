import { describe, expect, test } from 'vitest';
import {
  formatConfidence,
  formatCount,
  formatDate,
  formatDuration,
  formatUsd,
} from '../../../src/audit/report/format-quantities.js';

describe('format-quantities', () => {
  test.each([
    [0, '0 ms'],
    [999.4, '999 ms'],
    [999.6, '1.0 s'],
    [12_345, '12.3 s'],
    [59_960, '1 min 00 s'],
    [125_400, '2 min 05 s'],
    [3_725_000, '62 min 05 s'],
  ])('formatDuration(%d) is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  test.each([
    [0, '$0.0000'],
    [0.00042, '$0.0004'],
    [0.6966, '$0.6966'],
    [12.345, '$12.35'],
  ])('formatUsd(%d) is %s', (usd, text) => {
    expect(formatUsd(usd)).toBe(text);
  });

  test('counts group thousands; confidence has two decimals', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatConfidence(0.9)).toBe('0.90');
    expect(formatConfidence(1)).toBe('1.00');
  });

  test.each([
    ['2025-03-14T09:26:53.000Z', '2025-03-14'],
    ['2025-03-14T01:00:00+02:00', '2025-03-14'],
    ['Fri, 14 Mar 2025 09:26:53 GMT', '2025-03-14'],
    ['not a date', null],
  ])('formatDate(%j) is %j', (timestamp, date) => {
    expect(formatDate(timestamp)).toBe(date);
  });
});
