import { describe, expect, it } from 'vitest';
import { renderPromptHints } from '../../../src/audit/review/render-prompt-hints.js';
import type { SecurityHint } from '../../../src/audit/types.js';

function hint(overrides: Partial<SecurityHint>): SecurityHint {
  return {
    ruleId: 'js.eval',
    category: 'dynamic-code',
    severity: 'medium',
    path: 'src/a.ts',
    line: 1,
    excerpt: 'eval(x)',
    message: 'eval of a dynamic value',
    ...overrides,
  };
}

describe('renderPromptHints', () => {
  it('says none when there are none', () => {
    expect(renderPromptHints([])).toBe('(none)');
  });

  it('lists most severe first, then by path and line, without excerpts', () => {
    expect(
      renderPromptHints([
        hint({ line: 9 }),
        hint({
          path: 'src/b.ts',
          severity: 'high',
          ruleId: 'js.exec',
          message: 'exec\nwith   input',
        }),
        hint({ line: 2 }),
      ]),
    ).toBe(
      [
        '- js.exec src/b.ts:1 exec with input',
        '- js.eval src/a.ts:2 eval of a dynamic value',
        '- js.eval src/a.ts:9 eval of a dynamic value',
      ].join('\n'),
    );
  });

  it('counts the hints past the cap and never exceeds it', () => {
    const hints = Array.from({ length: 100 }, (_, index) => hint({ line: index + 1 }));
    const text = renderPromptHints(hints, 500);
    expect(text.length).toBeLessThanOrEqual(500);
    const listed = text.split('\n').filter((line) => line.startsWith('- ')).length;
    expect(text.endsWith(`(+${100 - listed} more hints not listed)`)).toBe(true);
  });
});
