import type Anthropic from '@anthropic-ai/sdk';
import type { ModelStopReason } from '../types.js';

/** Every `stop_reason` the Messages API documents; a record, so a new one in the SDK's type must be added here. */
const STOP_REASONS: Readonly<Record<Anthropic.StopReason, ModelStopReason>> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
  pause_turn: 'pause_turn',
  model_context_window_exceeded: 'context_exceeded',
};

/** Anthropic's stop reason in our terms; one this oy does not know is `other`. */
export function toAnthropicStopReason(wire: string): ModelStopReason {
  return Object.hasOwn(STOP_REASONS, wire) ? STOP_REASONS[wire as Anthropic.StopReason] : 'other';
}
