import type { AgentEvent, ApprovalRecord, DoneEvent } from '../../agent/index.js';
import type { ToolCall } from '../../providers/types.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { describeToolCall } from './describe-tool-call.js';

/**
 * What a person is shown of the agent's events, whatever draws it (`oy run`'s plain output, the
 * chat's turn view). Model and tool text stays raw in `answer`, `thinking` and a tool's `content`:
 * each renderer neutralises it as it streams; every other text is already safe for a terminal.
 */
export type ViewItem =
  | { kind: 'answer'; text: string }
  | { kind: 'thinking'; text: string }
  /** A model call ended: the next answer starts on a line of its own. */
  | { kind: 'model-call-ended'; inputTokens: number; outputTokens: number }
  /** `label`: the call on one line (`bash npm test`). */
  | { kind: 'tool-started'; id: string; call: ToolCall; label: string }
  | {
      kind: 'tool-finished';
      id: string;
      /** The call, when its `tool_call` came first (a recap shows results alone). */
      call: ToolCall | undefined;
      label: string;
      tool: string;
      ok: boolean;
      /** The redacted JSON the model read. */
      content: string;
      durationMs: number;
      /** How the call was settled, when an approval event said. */
      approval: ApprovalRecord | undefined;
    }
  /** One line of its own; `isDim`: secondary; `isEssential`: shown under --quiet too. */
  | { kind: 'note'; text: string; isDim: boolean; isEssential: boolean }
  /** The turn's answer is complete: flush what is held back. A stop notice, then `turn-ended`, follow. */
  | { kind: 'answer-ended' }
  | { kind: 'turn-ended'; done: DoneEvent };

/** What the turn's earlier events settled that a later event's view needs. */
export interface TurnSoFar {
  readonly calls: ReadonlyMap<string, ToolCall>;
  readonly approvals: ReadonlyMap<string, ApprovalRecord>;
}

/** The one mapping of an agent event to what is shown of it: pure, given what the turn settled so far. */
export function viewItemsOf(event: AgentEvent, turn: TurnSoFar): ViewItem[] {
  switch (event.type) {
    case 'text_delta':
      return [{ kind: 'answer', text: event.text }];
    case 'thinking_delta':
      return [{ kind: 'thinking', text: event.text }];
    case 'tool_call':
      return [
        {
          kind: 'tool-started',
          id: event.call.id,
          call: event.call,
          label: describeToolCall(event.call),
        },
      ];
    case 'approval':
      return [];
    case 'tool_result': {
      const call = turn.calls.get(event.toolCallId);
      return [
        {
          kind: 'tool-finished',
          id: event.toolCallId,
          call,
          label: call === undefined ? oneLine(event.tool) : describeToolCall(call),
          tool: event.tool,
          ok: event.ok,
          content: event.content,
          durationMs: event.durationMs,
          approval: turn.approvals.get(event.toolCallId),
        },
      ];
    }
    case 'usage':
      return [
        {
          kind: 'model-call-ended',
          inputTokens: event.usage.inputTokens,
          outputTokens: event.usage.outputTokens,
        },
      ];
    case 'compacted':
      return [
        {
          kind: 'note',
          text: `context compacted (${event.method}): ${event.tokensBefore} -> ${event.tokensAfter} tokens`,
          isDim: true,
          isEssential: false,
        },
      ];
    case 'error': {
      const isWarning = event.kind === 'warning';
      const text = `${isWarning ? 'warning' : 'error'}: ${neutralizeControl(event.message)}`;
      return [{ kind: 'note', text, isDim: false, isEssential: !isWarning }];
    }
    case 'done': {
      // A failure was reported by its error event already.
      const notice =
        event.notice && event.stopReason !== 'error'
          ? [
              {
                kind: 'note' as const,
                text: `${event.stopReason === 'cancelled' ? 'interrupted' : 'warning'}: ${neutralizeControl(event.notice)}`,
                isDim: false,
                isEssential: true,
              },
            ]
          : [];
      return [{ kind: 'answer-ended' }, ...notice, { kind: 'turn-ended', done: event }];
    }
  }
}

/** A renderer's view step: remembers each call and approval, and maps every event through viewItemsOf. */
export function createEventView(): (event: AgentEvent) => ViewItem[] {
  const calls = new Map<string, ToolCall>();
  const approvals = new Map<string, ApprovalRecord>();
  return (event) => {
    if (event.type === 'tool_call') calls.set(event.call.id, event.call);
    if (event.type === 'approval') {
      const { type: _type, ...record } = event;
      approvals.set(event.toolCallId, record);
    }
    return viewItemsOf(event, { calls, approvals });
  };
}

function oneLine(text: string): string {
  return neutralizeControl(text, { lineBreaks: 'show' });
}
