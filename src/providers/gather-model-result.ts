import { EMPTY_USAGE, type ModelResult, type StreamEvent, type ThinkingPart } from './types.js';

/** Collects a whole stream into one result: joined text, tool calls in order, the final usage and stop reason. */
export async function gatherModelResult(events: AsyncIterable<StreamEvent>): Promise<ModelResult> {
  const thinking: ThinkingPart[] = [];
  const result: ModelResult = { text: '', toolCalls: [], usage: EMPTY_USAGE, stopReason: 'other' };
  for await (const event of events) {
    if (event.type === 'text_delta') result.text += event.text;
    else if (event.type === 'tool_call') result.toolCalls.push(event.call);
    else if (event.type === 'thinking') thinking.push(event.part);
    else if (event.type === 'thinking_delta') continue;
    else if (event.type === 'usage') result.usage = event.usage;
    else result.stopReason = event.reason;
  }
  return thinking.length > 0 ? { ...result, thinking } : result;
}
