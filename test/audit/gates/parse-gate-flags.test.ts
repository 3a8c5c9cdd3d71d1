import { describe, expect, test } from 'vitest';
import { parseFailOn, parseMinCoverage } from '../../../src/audit/gates/parse-gate-flags.js';
import { UsageError } from '../../../src/shared/errors.js';

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseFailOn', () => {
  test('absent is null', () => {
    expect(parseFailOn(undefined)).toBeNull();
  });

  test.each([
    ['critical', 'critical'],
    ['HIGH', 'high'],
    [' Medium ', 'medium'],
    ['low', 'low'],
    ['info', 'info'],
  ])('%j is %s', (value, severity) => {
    expect(parseFailOn(value)).toBe(severity);
  });

  test.each([
    ['severe', '`severe`'],
    ['', '``'],
    [true, '``'],
    [3, '`3`'],
    [['high', 'low'], '`high low`'],
  ])('%j is a UsageError naming the flag and the choices', (value, shown) => {
    expect(usageMessage(() => parseFailOn(value))).toBe(
      `\`--fail-on\` must be one of critical, high, medium, low, info, got ${shown}`,
    );
  });
});

describe('parseMinCoverage', () => {
  test('absent is null', () => {
    expect(parseMinCoverage(undefined)).toBeNull();
  });

  test.each([
    ['0', 0],
    ['1', 1],
    ['0.9', 0.9],
    ['.75', 0.75],
    ['1.0', 1],
    [0.5, 0.5],
    [1, 1],
  ])('%j is %s', (value, ratio) => {
    expect(parseMinCoverage(value)).toBe(ratio);
  });

  test.each([
    ['2', '`2`'],
    [2, '`2`'],
    ['-0.1', '`-0.1`'],
    ['90%', '`90%`'],
    ['', '``'],
    ['0x1', '`0x1`'],
    ['1e0', '`1e0`'],
    ['abc', '`abc`'],
    [true, '``'],
    [Number.NaN, '`NaN`'],
  ])('%j is a UsageError naming the flag and the range', (value, shown) => {
    expect(usageMessage(() => parseMinCoverage(value))).toBe(
      `\`--min-coverage\` must be a number from 0 to 1, got ${shown}`,
    );
  });
});
