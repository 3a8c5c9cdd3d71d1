import { describe, expect, it } from 'vitest';
import { parseSafetyMode } from '../../../src/safety/policy/safety-mode.js';
import { UsageError } from '../../../src/shared/errors.js';

describe('parseSafetyMode', () => {
  const NAMES: [string, string][] = [
    ['plan', 'plan'],
    ['read', 'plan'],
    ['read-only', 'plan'],
    ['ask', 'ask'],
    ['default', 'ask'],
    ['edit', 'edit'],
    ['accept-edits', 'edit'],
    ['auto', 'auto'],
    ['auto-approve', 'auto'],
    ['yolo', 'auto'],
    [' AUTO ', 'auto'],
  ];
  for (const [text, mode] of NAMES) {
    it(`reads ${JSON.stringify(text)} as ${mode}`, () => expect(parseSafetyMode(text)).toBe(mode));
  }

  for (const text of ['', 'bypass', 'constructor', 'toString', 'plan,auto']) {
    it(`refuses ${JSON.stringify(text)} naming --mode and the choices`, () => {
      expect(() => parseSafetyMode(text)).toThrow(UsageError);
      expect(() => parseSafetyMode(text)).toThrow(/--mode.*plan, ask, edit, auto/u);
    });
  }
});
