import type { ModelClient, ModelRequest, ToolCall, Usage } from '../../providers/types.js';
import { EMPTY_USAGE } from '../../providers/types.js';
import type { AgentEvent } from '../events.js';
import { boundToolArguments } from '../../providers/bound-tool-arguments.js';
import { addUsage } from '../../providers/pricing/usage-totals.js';

export interface ModelCallResult {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
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
  let usage: Usage = { ...EMPTY_USAGE };
  for await (const event of client.stream(request, { signal })) {
    if (event.type === 'text_delta') {
      partial.text += event.text;
      yield { type: 'text_delta', text: event.text };
    } else if (event.type === 'tool_call') {
      // Whatever the provider, nothing deeper than the cap reaches the loop's recursive steps.
      toolCalls.push({ ...event.call, arguments: boundToolArguments(event.call.arguments) });
    } else if (event.type === 'usage') {
      usage = addUsage(usage, event.usage);
    }
  }
  return { text: partial.text, toolCalls, usage };
}
