import type { StopReason as BedrockStopReason } from '@aws-sdk/client-bedrock-runtime';
import type { ModelStopReason } from '../types.js';

/** Bedrock's stop reasons in our terms; filters count as refusals, a full context window as running out of tokens. */
const STOP_REASONS: Record<string, ModelStopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'refusal',
  content_filtered: 'refusal',
};

export function toStopReason(reason: BedrockStopReason | string | undefined): ModelStopReason {
  return (reason === undefined ? undefined : STOP_REASONS[reason]) ?? 'other';
}
