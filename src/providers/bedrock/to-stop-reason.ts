import type { StopReason as BedrockStopReason } from '@aws-sdk/client-bedrock-runtime';
import type { ModelStopReason } from '../types.js';

/** Every `stopReason` Converse documents; a record, so a new one in the SDK's type must be added here. */
const STOP_REASONS: Readonly<Record<BedrockStopReason, ModelStopReason>> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  model_context_window_exceeded: 'context_exceeded',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  malformed_model_output: 'malformed',
  malformed_tool_use: 'malformed',
};

/** Bedrock's stop reason in our terms; a missing or unknown one is `other`. */
export function toStopReason(reason: BedrockStopReason | string | undefined): ModelStopReason {
  return reason !== undefined && Object.hasOwn(STOP_REASONS, reason)
    ? STOP_REASONS[reason as BedrockStopReason]
    : 'other';
}
