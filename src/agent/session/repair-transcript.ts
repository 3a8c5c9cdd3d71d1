import type { Message, ToolCall, ToolResult } from '../../providers/types.js';

/** What a call whose result was never recorded answers, so the transcript stays valid mid-history. */
const INTERRUPTED_RESULT = JSON.stringify({
  ok: false,
  error: 'interrupted: no result was recorded for this call',
});

/**
 * Makes a resumed history a transcript every provider accepts: each tool call is followed by exactly
 * its results, in order; calls left unanswered at the end are dropped with their partial results;
 * stray results are dropped; whitespace-only answer text is emptied and empty answers dropped; consecutive
 * user prompts are joined; a trailing unanswered prompt is dropped.
 */
export function repairTranscript(saved: readonly Message[]): Message[] {
  let messages = saved;
  const repaired: Message[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') continue; // consumed below; anything left answers no call
    if (message.role === 'user') {
      appendPrompt(repaired, message);
      continue;
    }
    // Whitespace-only text was saved by older versions; services reject it, so it is never sent again.
    if (message.text !== '' && message.text.trim() === '') {
      messages = messages.with(index, { ...message, text: '' });
      index -= 1;
      continue;
    }
    if (message.toolCalls.length === 0) {
      // An answer with nothing in it carries nothing; the prompts around it are joined.
      if (message.text !== '' || (message.thinking?.length ?? 0) > 0) repaired.push(message);
      continue;
    }
    const next = messages[index + 1];
    const results = next?.role === 'tool' ? next.results : [];
    const lastIndex = next?.role === 'tool' ? index + 1 : index;
    const answered = matchResults(message.toolCalls, results);
    // The tail: those calls never finished, so the model never saw them happen.
    if (answered.includes(undefined) && lastIndex === messages.length - 1) break;
    repaired.push(message, {
      role: 'tool',
      results: answered.map((result, at) => result ?? interrupted(message.toolCalls[at]!)),
    });
    index = lastIndex;
  }
  while (repaired.at(-1)?.role === 'user') repaired.pop();
  return repaired;
}

function matchResults(
  calls: readonly ToolCall[],
  results: readonly ToolResult[],
): (ToolResult | undefined)[] {
  return calls.map((call) => results.find((result) => result.toolCallId === call.id));
}

function interrupted(call: ToolCall): ToolResult {
  return { toolCallId: call.id, content: INTERRUPTED_RESULT, isError: true };
}

function appendPrompt(repaired: Message[], prompt: Extract<Message, { role: 'user' }>): void {
  const previous = repaired.at(-1);
  if (previous?.role !== 'user') {
    repaired.push(prompt);
    return;
  }
  // A turn that ended before any answer leaves its prompt unanswered; providers want one user turn.
  const documents = [...(previous.documents ?? []), ...(prompt.documents ?? [])];
  repaired[repaired.length - 1] = {
    role: 'user',
    text: `${previous.text}\n\n${prompt.text}`,
    ...(documents.length > 0 ? { documents } : {}),
  };
}
