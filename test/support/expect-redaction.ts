import { expect } from 'vitest';
import { createRedactor } from '../../src/safety/redact/redactor.js';

/** Asserts that `value` inside `text` is redacted by `rule` on `line` and that no part of it survives. */
export function expectRedacted(text: string, value: string, rule: string, line = 1): void {
  const result = createRedactor().redact(text);
  expect(result.text).not.toContain(value);
  expect(result.redactions).toContainEqual({
    rule,
    line,
    placeholder: expect.stringMatching(new RegExp(`^\\[REDACTED:${rule}:\\d+\\]$`)) as unknown,
  });
  expect(result.text.split('\n').length).toBe(text.split('\n').length);
}

/** Asserts that the redactor leaves `text` exactly as it is. */
export function expectUntouched(text: string): void {
  const result = createRedactor().redact(text);
  expect(result.redactions).toEqual([]);
  expect(result.text).toBe(text);
}
