import type { StopReason as BedrockStopReason } from '@aws-sdk/client-bedrock-runtime';
import type { StopReason } from '../types.js';

/** Bedrock's stop reasons in our terms; filters count as refusals, a full context window as running out of tokens. */
const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'refusal',
  content_filtered: 'refusal',
};

export function toStopReason(reason: BedrockStopReason | string | undefined): StopReason {
  return (reason === undefined ? undefined : STOP_REASONS[reason]) ?? 'other';
}
