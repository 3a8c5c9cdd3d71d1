import { expect } from 'vitest';
import { indexFile } from '../../../src/audit/hints/index-file.js';
import type { SecurityHint, Severity } from '../../../src/audit/types.js';

/** A file that should produce a hint: the rule, the 1-based line and the severity expected. */
export type PositiveCase = [
  label: string,
  path: string,
  code: string,
  ruleId: string,
  line: number,
  severity: Severity,
];
/** A near miss: a file that must not produce any hint of the rule. */
export type NegativeCase = [label: string, path: string, code: string, ruleId: string];

/** Lines joined into one file text, so line numbers in a case read off the array index + 1. */
export function lines(...text: string[]): string {
  return text.join('\n');
}

export function expectHint(
  path: string,
  code: string,
  ruleId: string,
  line: number,
  severity: Severity,
): SecurityHint {
  const hints = indexFile({ path, text: code });
  const hint = hints.find((h) => h.ruleId === ruleId && h.line === line);
  expect(
    hint,
    `no ${ruleId} on line ${line}; got ${JSON.stringify(hints.map((h) => [h.ruleId, h.line]))}`,
  ).toBeDefined();
  expect(hint?.severity).toBe(severity);
  expect(hint?.path).toBe(path);
  expect(hint?.message.length).toBeGreaterThan(0);
  expect(hint?.message).not.toContain('\n');
  // Excerpts quote the line itself, except that invisible characters are written as \uXXXX.
  if (!/\\u[0-9A-F]{4}/.test(hint?.excerpt ?? ''))
    expect(code.split('\n')[line - 1]).toContain(hint?.excerpt);
  return hint as SecurityHint;
}

export function expectNoHint(path: string, code: string, ruleId: string): void {
  const hints = indexFile({ path, text: code }).filter((h) => h.ruleId === ruleId);
  expect(hints, JSON.stringify(hints)).toEqual([]);
}
