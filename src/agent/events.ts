import type { ToolCall, Usage } from '../providers/types.js';

/** Why one turn of the agent loop ended (`max_turns` names the `--max-turns` cap on model calls); see ModelStopReason for one answer. */
export type LoopStopReason =
  'completed' | 'max_turns' | 'max_cost' | 'repeated_call' | 'cancelled' | 'error';

/** The user's answer at an approval prompt: `always` also grants a session rule. */
export type ApprovalAnswer = 'yes' | 'no' | 'always';

/**
 * One decision about one tool call, as the policy and the user settled it (README.md "Safety modes"):
 * the `approval` event, and the session's `approval` line. Every text in it has passed the redactor.
 */
export interface ApprovalRecord {
  toolCallId: string;
  tool: string;
  /** What the call was about to do, in one line (`run npm test`): the approval prompt's header. */
  summary: string;
  /** What the policy said before anyone was asked. */
  decision: 'allow' | 'ask' | 'deny';
  /** What happened: an ask ends allowed or denied by the user (or denied with no one to ask). */
  outcome: 'allowed' | 'denied';
  /** The rule or built-in that decided (`mode:ask`, `Bash(rm:*)`), or the grant that allowed it. */
  rule?: string;
  reason: string;
  /** The user's answer, when they were asked. */
  answer?: ApprovalAnswer;
  /** When they were asked: the rule or mode that asked (`mode:ask`, an ask rule, `secret-bearing-file`). */
  askedBy?: string;
  /** When they were asked: what "always" would grant, in the words the prompt showed. */
  offer?: string;
  /** After "always": the exact rules this session now allows (empty: nothing could be remembered). */
  granted?: string[];
  /** The policy would have asked, and no one could answer (a non-interactive run), so it was refused. */
  isUnattended?: true;
}

/** What the loop yields (README.md "Agent mode"); `oy run --json` prints each as one NDJSON line. */
export type AgentEvent =
  | { type: 'text_delta'; text: string }
  /** The model's visible thinking as it streams (shown dimmed; never part of the answer). */
  | { type: 'thinking_delta'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | ({ type: 'approval' } & ApprovalRecord)
  | {
      type: 'tool_result';
      toolCallId: string;
      tool: string;
      ok: boolean;
      /** The compact, redacted JSON the model reads. */
      content: string;
      durationMs: number;
    }
  | {
      type: 'usage';
      /** This model call. */
      usage: Usage;
      costUsd: number | null;
      /** The whole run (and the resumed session before it), so a reader needs only the last one. */
      totalUsage: Usage;
      totalCostUsd: number | null;
    }
  | {
      type: 'compacted';
      tokensBefore: number;
      tokensAfter: number;
      method: 'shortened' | 'model' | 'deterministic';
    }
  | { type: 'error'; message: string; kind?: string }
  | {
      type: 'done';
      stopReason: LoopStopReason;
      /** The final answer (or the summary a cap asked for). */
      answer: string;
      /** Model calls this turn made (what `--max-turns` caps). */
      modelCalls: number;
      usage: Usage;
      costUsd: number | null;
      sessionId?: string;
      /** Why the loop stopped early (a cap, a cancel, a failure); absent when it completed. */
      notice?: string;
    };
