import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ASCII_CHARS_PER_TOKEN,
  estimateRequestTokens,
  estimateTextTokens,
  type TokenEstimateInput,
} from '../../../src/agent/compact/estimate-tokens.js';
import { createTokenCounter } from '../../../src/audit/tokens/count-tokens.js';

const EMPTY: TokenEstimateInput = { system: '', messages: [], tools: [] };

describe('estimateRequestTokens', () => {
  it('counts every part of the request: system, texts, tool calls, results, documents and tools', () => {
    const base = estimateRequestTokens(EMPTY);
    const grow = (change: Partial<TokenEstimateInput>): number =>
      estimateRequestTokens({ ...EMPTY, ...change }) - base;
    const text = 'a'.repeat(3_000);
    expect(grow({ system: text })).toBe(1_000);
    expect(grow({ messages: [{ role: 'user', text }] })).toBeGreaterThan(1_000);
    expect(
      grow({
        messages: [
          {
            role: 'assistant',
            text: '',
            toolCalls: [{ id: 'c', name: 'write', arguments: { text } }],
          },
        ],
      }),
    ).toBeGreaterThan(1_000);
    expect(
      grow({ messages: [{ role: 'tool', results: [{ toolCallId: 'c', content: text }] }] }),
    ).toBeGreaterThan(1_000);
    expect(
      grow({
        messages: [
          { role: 'user', text: '', documents: [{ name: 'a.md', format: 'md', data: text }] },
        ],
      }),
    ).toBeGreaterThan(1_000);
    expect(
      grow({ tools: [{ name: 't', description: text, inputSchema: { type: 'object' } }] }),
    ).toBeGreaterThan(1_000);
  });

  it('counts a non-ASCII character as a whole token', () => {
    expect(estimateTextTokens('字'.repeat(300))).toBe(300);
    expect(estimateTextTokens('a'.repeat(300))).toBe(300 / ASCII_CHARS_PER_TOKEN);
  });

  it('errs high for code and prose, and stays within 5% for digit-heavy JSON (o200k, cl100k)', () => {
    const code = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    const prose =
      'The quick brown fox jumps over the lazy dog while the build keeps failing. '.repeat(200);
    const json = JSON.stringify({
      ok: true,
      matches: Array.from({ length: 300 }, (_, i) => ({ path: `src/f${i}.ts`, line: i * 7 })),
    });
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const counter = createTokenCounter(encoding);
      try {
        expect(estimateTextTokens(code)).toBeGreaterThan(counter.count(code));
        expect(estimateTextTokens(prose)).toBeGreaterThan(counter.count(prose));
        expect(estimateTextTokens(json)).toBeGreaterThan(0.95 * counter.count(json));
      } finally {
        counter.free();
      }
    }
  });
});
