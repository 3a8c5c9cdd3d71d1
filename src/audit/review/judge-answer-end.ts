import type { ModelStopReason } from '../../providers/types.js';

/** Why an answer that did not end normally is no review: the ledger's `failed(<reason>)`. */
export type CutAnswerReason = 'truncated' | 'refused' | 'incomplete';

export type AnswerEnd =
  | { isWhole: true }
  | {
      isWhole: false;
      reason: CutAnswerReason;
      /** What happened, for the ledger and `--verbose`. */
      detail: string;
    };

const WHOLE: AnswerEnd = { isWhole: true };
const cut = (reason: CutAnswerReason, detail: string): AnswerEnd => ({
  isWhole: false,
  reason,
  detail,
});

/**
 * What each stop reason makes of a review answer (map or reduce). An allow-list: only a natural end is
 * whole; the review offers no tools, so a tool call is no answer either. A record, so a new stop reason
 * must be judged here before oy compiles.
 */
const ANSWER_ENDS: Readonly<Record<ModelStopReason, AnswerEnd>> = {
  end_turn: WHOLE,
  stop_sequence: WHOLE,
  max_tokens: cut('truncated', 'the answer was cut off at its output limit (max_tokens)'),
  context_exceeded: cut(
    'truncated',
    "the answer was cut off when the model's context window filled",
  ),
  refusal: cut('refused', 'the model declined to answer'),
  content_filter: cut('refused', 'a content filter or guardrail stopped the answer'),
  pause_turn: cut('incomplete', 'the provider paused the answer before it ended'),
  tool_use: cut('incomplete', 'the model asked for a tool, though the review offers none'),
  malformed: cut('incomplete', "the provider could not parse the model's output"),
  other: cut('incomplete', 'the answer ended for a reason oy does not know'),
};

/** Whether an answer that ended this way is a whole answer a review may use, and if not, why. */
export function judgeAnswerEnd(stopReason: ModelStopReason): AnswerEnd {
  return ANSWER_ENDS[stopReason];
}
