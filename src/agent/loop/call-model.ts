import type {
  Message,
  ModelClient,
  ModelRequest,
  ThinkingPart,
  ToolCall,
  Usage,
} from '../../providers/types.js';
import { EMPTY_USAGE } from '../../providers/types.js';
import type { AgentEvent } from '../events.js';
import { boundToolArguments } from '../../providers/bound-tool-arguments.js';
import { addUsage } from '../../providers/pricing/usage-totals.js';

export interface ModelCallResult {
  text: string;
  toolCalls: ToolCall[];
  /** Signed thinking, to go back unchanged in the next request of a tool loop. */
  thinking: ThinkingPart[];
  usage: Usage;
}

/**
 * The assistant turn to keep: whitespace-only text (models often send "\n\n" before a tool call) is dropped,
 * since services reject it and a resumed session would send it again; thinking is kept only when there is some.
 */
export function toAssistantMessage(
  text: string,
  toolCalls: ToolCall[],
  thinking: ThinkingPart[] = [],
): Extract<Message, { role: 'assistant' }> {
  return {
    role: 'assistant',
    text: text.trim() === '' ? '' : text,
    toolCalls,
    ...(thinking.length > 0 ? { thinking } : {}),
  };
}

/** What arrived before a failure, so the transcript can keep the partial answer. */
export interface PartialAnswer {
  text: string;
}

/** Streams one model call: text deltas are yielded as they come; the whole answer is returned. */
export async function* callModel(
  client: ModelClient,
  request: ModelRequest,
  partial: PartialAnswer,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, ModelCallResult> {
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingPart[] = [];
  let usage: Usage = { ...EMPTY_USAGE };
  for await (const event of client.stream(request, { signal })) {
    if (event.type === 'text_delta') {
      partial.text += event.text;
      yield { type: 'text_delta', text: event.text };
    } else if (event.type === 'thinking_delta') {
      yield { type: 'thinking_delta', text: event.text };
    } else if (event.type === 'thinking') {
      thinking.push(event.part);
    } else if (event.type === 'tool_call') {
      // Whatever the provider, nothing deeper than the cap reaches the loop's recursive steps.
      toolCalls.push({ ...event.call, arguments: boundToolArguments(event.call.arguments) });
    } else if (event.type === 'usage') {
      usage = addUsage(usage, event.usage);
    }
  }
  return { text: partial.text, toolCalls, thinking, usage };
}
