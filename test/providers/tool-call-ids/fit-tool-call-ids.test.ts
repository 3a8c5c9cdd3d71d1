import { describe, expect, it } from 'vitest';
import {
  fitToolCallId,
  fitToolCallIds,
} from '../../../src/providers/tool-call-ids/fit-tool-call-ids.js';
import { TOOL_CALL_ID_RULES } from '../../../src/providers/tool-call-ids/tool-call-id-rules.js';
import type { Message } from '../../../src/providers/types.js';

/** Ids as other servers issue them: Kimi-style, vLLM's 48 characters, a pipe, spaces, non-ASCII. */
const FOREIGN = [
  'functions.list:0',
  'functions.list:1',
  'chatcmpl-tool-0123456789abcdef0123456789abcdef0123',
  'call|abc',
  'a b',
  'ünï',
  'x'.repeat(300),
  '',
];

function conversation(ids: string[]): Message[] {
  return [
    { role: 'user', text: 'go' },
    {
      role: 'assistant',
      text: '',
      toolCalls: ids.map((id) => ({ id, name: 'list', arguments: {} })),
    },
    { role: 'tool', results: ids.map((id) => ({ toolCallId: id, content: 'ok' })) },
  ];
}

describe('fitToolCallIds', () => {
  for (const [provider, rule] of Object.entries(TOOL_CALL_ID_RULES)) {
    it(`${provider}: every id fits, calls and results still pair, and distinct ids stay distinct`, () => {
      const fitted = fitToolCallIds(conversation(FOREIGN), rule);
      const calls = fitted[1]!.role === 'assistant' ? fitted[1]!.toolCalls.map((c) => c.id) : [];
      const results = fitted[2]!.role === 'tool' ? fitted[2]!.results.map((r) => r.toolCallId) : [];
      expect(results).toEqual(calls);
      expect(new Set(calls).size).toBe(FOREIGN.length);
      for (const id of calls) {
        expect(id.length).toBeGreaterThanOrEqual(1);
        expect(id.length).toBeLessThanOrEqual(rule.maxLength);
        if (rule.allowed) expect(id).toMatch(rule.allowed);
      }
    });
  }

  it('keeps an id the rule accepts as it is, and the conversation itself when all fit', () => {
    const own = conversation(['toolu_01ABC', 'call_xyz-1']);
    expect(fitToolCallIds(own, TOOL_CALL_ID_RULES.anthropic)).toBe(own);
    expect(fitToolCallId('functions.list:0', TOOL_CALL_ID_RULES.openai)).toBe('functions.list:0');
  });

  it('maps the same id the same way in every request, and leaves the original untouched', () => {
    const original = conversation(['functions.list:0']);
    const first = fitToolCallIds(original, TOOL_CALL_ID_RULES.bedrock);
    const second = fitToolCallIds(conversation(['functions.list:0']), TOOL_CALL_ID_RULES.bedrock);
    expect(second).toEqual(first);
    expect(original[1]!.role === 'assistant' && original[1]!.toolCalls[0]!.id).toBe(
      'functions.list:0',
    );
    expect(fitToolCallId('functions.list:0', TOOL_CALL_ID_RULES.bedrock)).toMatch(
      /^functions_list_0_[0-9a-f]{12}$/,
    );
  });

  it('keeps ids apart that differ only in characters the rule drops', () => {
    const rule = TOOL_CALL_ID_RULES.anthropic;
    expect(fitToolCallId('a.b', rule)).not.toBe(fitToolCallId('a:b', rule));
  });
});
