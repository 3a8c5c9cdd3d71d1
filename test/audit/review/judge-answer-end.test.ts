import { describe, expect, it } from 'vitest';
import { judgeAnswerEnd } from '../../../src/audit/review/judge-answer-end.js';
import type { ModelStopReason } from '../../../src/providers/types.js';

/** A record, so a new stop reason needs a verdict in this test too. */
const EXPECTED: Record<ModelStopReason, 'whole' | 'truncated' | 'refused' | 'incomplete'> = {
  end_turn: 'whole',
  stop_sequence: 'whole',
  max_tokens: 'truncated',
  context_exceeded: 'truncated',
  refusal: 'refused',
  content_filter: 'refused',
  pause_turn: 'incomplete',
  tool_use: 'incomplete',
  malformed: 'incomplete',
  other: 'incomplete',
};

describe('judgeAnswerEnd', () => {
  it.each(Object.entries(EXPECTED))('%s is %s', (stopReason, expected) => {
    const end = judgeAnswerEnd(stopReason as ModelStopReason);
    expect(end.isWhole ? 'whole' : end.reason).toBe(expected);
    if (!end.isWhole) expect(end.detail).not.toBe('');
  });
});
