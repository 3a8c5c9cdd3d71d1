import { EMPTY_USAGE, type ModelResult, type StreamEvent } from './types.js';

/** Collects a whole stream into one result: joined text, tool calls in order, the final usage and stop reason. */
export async function gatherModelResult(events: AsyncIterable<StreamEvent>): Promise<ModelResult> {
  const result: ModelResult = { text: '', toolCalls: [], usage: EMPTY_USAGE, stopReason: 'other' };
  for await (const event of events) {
    if (event.type === 'text_delta') result.text += event.text;
    else if (event.type === 'tool_call') result.toolCalls.push(event.call);
    else if (event.type === 'usage') result.usage = event.usage;
    else result.stopReason = event.reason;
  }
  return result;
}
