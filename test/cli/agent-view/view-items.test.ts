import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, ApprovalRecord } from '../../../src/agent/index.js';
import { createEventView, viewItemsOf } from '../../../src/cli/agent-view/view-items.js';
import type { ToolCall } from '../../../src/providers/types.js';

const NO_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const NOTHING_SO_FAR = { calls: new Map(), approvals: new Map() };
// Fresh each run: a terminal escape that must never reach a note whole.
const HOSTILE = `\u001b]0;${randomBytes(6).toString('hex')}\u0007`;

const call: ToolCall = { id: 'c1', name: 'bash', arguments: { command: 'npm test' } };
const result: AgentEvent = {
  type: 'tool_result',
  toolCallId: 'c1',
  tool: 'bash',
  ok: false,
  content: '{}',
  durationMs: 7,
};
const denial: ApprovalRecord = {
  toolCallId: 'c1',
  tool: 'bash',
  summary: 'run npm test',
  decision: 'deny',
  outcome: 'denied',
  rule: 'Bash(npm:*)',
  reason: 'a deny rule matched',
};
const done = (extra: Partial<Extract<AgentEvent, { type: 'done' }>>): AgentEvent => ({
  type: 'done',
  stopReason: 'completed',
  answer: '',
  modelCalls: 1,
  usage: NO_USAGE,
  costUsd: null,
  ...extra,
});

describe('viewItemsOf: one agent event, as the run and the chat show it', () => {
  it('a result is labelled by its call and carries how it was approved', () => {
    const turn = { calls: new Map([['c1', call]]), approvals: new Map([['c1', denial]]) };
    expect(viewItemsOf(result, turn)).toEqual([
      {
        kind: 'tool-finished',
        id: 'c1',
        call,
        label: 'bash npm test',
        tool: 'bash',
        ok: false,
        content: '{}',
        durationMs: 7,
        approval: denial,
      },
    ]);
  });

  it('a result whose call was not seen is labelled by its tool name, neutralised', () => {
    const [item] = viewItemsOf({ ...result, tool: `bash${HOSTILE}` }, NOTHING_SO_FAR);
    expect(item).toMatchObject({ kind: 'tool-finished', call: undefined, approval: undefined });
    expect(JSON.stringify(item && 'label' in item ? item.label : '')).not.toContain('\\u001b');
  });

  it('is pure: the same event and turn give the same items, and the turn is left as it was', () => {
    const turn = { calls: new Map([['c1', call]]), approvals: new Map<string, ApprovalRecord>() };
    const first = viewItemsOf(result, turn);
    expect(viewItemsOf(result, turn)).toEqual(first);
    expect([...turn.calls.keys()]).toEqual(['c1']);
    expect(turn.approvals.size).toBe(0);
  });

  it('a warning is shown unless quiet, an error always; both neutralised', () => {
    const warning = viewItemsOf(
      { type: 'error', kind: 'warning', message: HOSTILE },
      NOTHING_SO_FAR,
    );
    const error = viewItemsOf({ type: 'error', message: HOSTILE }, NOTHING_SO_FAR);
    expect(warning).toMatchObject([{ kind: 'note', isEssential: false, isDim: false }]);
    expect(error).toMatchObject([{ kind: 'note', isEssential: true }]);
    for (const [item] of [warning, error]) {
      const text = item?.kind === 'note' ? item.text : '';
      expect(text).toMatch(/^(warning|error): /u);
      expect(text).not.toContain('\u001b');
      expect(text).not.toContain('\u0007');
    }
  });

  it('a stop ends the answer, then says why (interrupted for a cancel), then ends the turn', () => {
    const cancelled = viewItemsOf(
      done({ stopReason: 'cancelled', notice: 'the user interrupted' }),
      NOTHING_SO_FAR,
    );
    expect(cancelled.map((item) => item.kind)).toEqual(['answer-ended', 'note', 'turn-ended']);
    expect(cancelled[1]).toMatchObject({
      text: 'interrupted: the user interrupted',
      isEssential: true,
    });
    const capped = viewItemsOf(done({ stopReason: 'max_turns', notice: 'cap' }), NOTHING_SO_FAR);
    expect(capped[1]).toMatchObject({ text: 'warning: cap' });
    // A failure's error event said it already.
    const failed = viewItemsOf(done({ stopReason: 'error', notice: 'failed' }), NOTHING_SO_FAR);
    expect(failed.map((item) => item.kind)).toEqual(['answer-ended', 'turn-ended']);
  });

  it('the view step remembers calls and approvals for the results that follow', () => {
    const toView = createEventView();
    expect(toView({ type: 'tool_call', call })).toMatchObject([
      { kind: 'tool-started', label: 'bash npm test' },
    ]);
    expect(toView({ type: 'approval', ...denial })).toEqual([]);
    expect(toView(result)).toMatchObject([{ label: 'bash npm test', approval: denial }]);
  });
});
