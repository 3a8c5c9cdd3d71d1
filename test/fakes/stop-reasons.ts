import type { FakeProtocol } from './fake-provider-server.js';
import type { ScriptedAnswer } from './script.js';

/**
 * Why a scripted answer ended, in the services' own words. The first four exist in all three services
 * (OpenAI calls them `stop`, `tool_calls`, `length`, `stop`); the others belong to one or two services.
 */
export type ScriptedStopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  /** Anthropic `refusal`; on OpenAI a `refusal` message (the text goes there) with finish reason `stop`. */
  | 'refusal'
  | 'pause_turn'
  | 'model_context_window_exceeded'
  | 'guardrail_intervened'
  | 'content_filtered'
  | 'malformed_model_output'
  | 'malformed_tool_use'
  | 'content_filter';

/**
 * What each service sends for each reason, from its API reference (Anthropic `stop_reason`, Bedrock
 * Converse `stopReason`, OpenAI `finish_reason`); a service left out never sends that reason, and a
 * script that asks it to fails the call, so the fake stays as strict as the service.
 */
export const WIRE_STOP_REASONS: Readonly<
  Record<ScriptedStopReason, Readonly<Partial<Record<FakeProtocol, string>>>>
> = {
  end_turn: { anthropic: 'end_turn', bedrock: 'end_turn', openai: 'stop' },
  tool_use: { anthropic: 'tool_use', bedrock: 'tool_use', openai: 'tool_calls' },
  max_tokens: { anthropic: 'max_tokens', bedrock: 'max_tokens', openai: 'length' },
  stop_sequence: { anthropic: 'stop_sequence', bedrock: 'stop_sequence', openai: 'stop' },
  refusal: { anthropic: 'refusal', openai: 'stop' },
  pause_turn: { anthropic: 'pause_turn' },
  model_context_window_exceeded: {
    anthropic: 'model_context_window_exceeded',
    bedrock: 'model_context_window_exceeded',
  },
  guardrail_intervened: { bedrock: 'guardrail_intervened' },
  content_filtered: { bedrock: 'content_filtered' },
  malformed_model_output: { bedrock: 'malformed_model_output' },
  malformed_tool_use: { bedrock: 'malformed_tool_use' },
  content_filter: { openai: 'content_filter' },
};

/** The answer's stop reason as `protocol` sends it; throws (failing the call) for one that service never sends. */
export function wireStopReason(protocol: FakeProtocol, answer: ScriptedAnswer): string {
  const scripted =
    answer.stopReason ?? ((answer.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
  const wire = WIRE_STOP_REASONS[scripted][protocol];
  if (wire === undefined)
    throw new Error(`the ${protocol} service never ends an answer with ${scripted}`);
  return wire;
}
