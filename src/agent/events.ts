import type { ToolCall, Usage } from '../providers/types.js';

/** Why one turn of the agent loop ended (`max_turns` names the `--max-turns` cap on model calls); see ModelStopReason for one answer. */
export type LoopStopReason =
  'completed' | 'max_turns' | 'max_cost' | 'repeated_call' | 'cancelled' | 'error';

/** What the loop yields (README.md "Agent mode"); `oy run --json` prints each as one NDJSON line. */
export type AgentEvent =
  | { type: 'text_delta'; text: string }
  /** The model's visible thinking as it streams (shown dimmed; never part of the answer). */
  | { type: 'thinking_delta'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | {
      type: 'approval';
      toolCallId: string;
      tool: string;
      /** What the policy said before anyone was asked. */
      decision: 'allow' | 'ask' | 'deny';
      /** What happened: an ask ends allowed or denied by the user (or denied with no one to ask). */
      outcome: 'allowed' | 'denied';
      rule?: string;
      reason: string;
    }
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
