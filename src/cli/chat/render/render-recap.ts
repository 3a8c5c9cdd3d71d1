import type { AgentEvent, ApprovalRecord } from '../../../agent/index.js';
import type { Message } from '../../../providers/types.js';
import { neutralizeControl } from '../../../shared/terminal/neutralize-control.js';
import type { ChatOutput } from '../chat-session.js';
import type { TurnView } from './turn-view.js';

/** Exchanges (a prompt and all that answered it) shown again when a session is resumed. */
export const RECAP_EXCHANGES = 3;
/** Lines of a prompt shown before the rest is folded (attached files ride in the prompt). */
const RECAP_PROMPT_LINES = 6;

export interface RecapInput {
  sessionId: string;
  messages: readonly Message[];
  /** How each tool call was settled, by call id (from the session file): a refusal shows as one. */
  approvals: ReadonlyMap<string, ApprovalRecord>;
  output: ChatOutput;
  /** The chat's prompts, so a past prompt looks as it did when typed. */
  prompt: string;
  continuationPrompt: string;
  /** A view that shows past events: no spinner, no durations. */
  startView(): TurnView;
}

/**
 * The last exchanges of a resumed session, drawn as they were: each prompt after the chat's own
 * prompt, then the answers and tool calls through the turn view (commands' outputs folded).
 */
export function renderRecap(input: RecapInput): void {
  const { stderr, colors: c } = input.output;
  const exchanges = splitExchanges(input.messages);
  if (exchanges.length === 0) return;
  const shown = exchanges.slice(-RECAP_EXCHANGES);
  const id = neutralizeControl(input.sessionId, { lineBreaks: 'show' });
  const which =
    shown.length === exchanges.length
      ? `all ${exchanges.length === 1 ? 'of it' : `${exchanges.length} exchanges`}`
      : `the last ${shown.length} of ${exchanges.length} exchanges (oy sessions show ${id} has them all)`;
  stderr.write(`${c.dim(`── recap of session ${id}: ${which}`)}\n`);
  for (const exchange of shown) {
    const [first, ...rest] = exchange;
    if (first?.role === 'user') showPrompt(input, first.text);
    const view = input.startView();
    for (const message of first?.role === 'user' ? rest : exchange)
      for (const event of eventsOf(message, input.approvals)) view.render(event);
    view.render(DONE);
    view.end();
  }
}

/** A prompt and everything after it up to the next prompt; anything before the first prompt is its own. */
function splitExchanges(messages: readonly Message[]): Message[][] {
  const exchanges: Message[][] = [];
  for (const message of messages) {
    if (message.role === 'user' || exchanges.length === 0) exchanges.push([message]);
    else exchanges.at(-1)!.push(message);
  }
  return exchanges;
}

function showPrompt(input: RecapInput, text: string): void {
  const { stderr, colors: c } = input.output;
  const lines = neutralizeControl(text, { lineBreaks: 'normalize' }).split('\n');
  const kept = lines.slice(0, RECAP_PROMPT_LINES);
  const shown = kept.map(
    (line, index) => `${index === 0 ? input.prompt : input.continuationPrompt}${line}`,
  );
  const hidden = lines.length - kept.length;
  if (hidden > 0) shown.push(c.yellow(`${input.continuationPrompt}… ${hidden} more lines`));
  stderr.write(`${shown.join('\n')}\n`);
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const DONE: AgentEvent = {
  type: 'done',
  stopReason: 'completed',
  answer: '',
  modelCalls: 0,
  usage: NO_USAGE,
  costUsd: null,
};

/** A saved message as the events the live turn showed (the loop's own order: text, calls, results). */
function eventsOf(message: Message, approvals: ReadonlyMap<string, ApprovalRecord>): AgentEvent[] {
  if (message.role === 'user') return [{ type: 'text_delta', text: message.text }];
  if (message.role === 'assistant') {
    return [
      { type: 'text_delta', text: message.text },
      ...message.toolCalls.map((call): AgentEvent => ({ type: 'tool_call', call })),
      // Ends the model call, so the next answer starts on a line of its own.
      { type: 'usage', usage: NO_USAGE, costUsd: null, totalUsage: NO_USAGE, totalCostUsd: null },
    ];
  }
  return message.results.flatMap((result): AgentEvent[] => {
    const approval = approvals.get(result.toolCallId);
    return [
      ...(approval === undefined ? [] : [{ type: 'approval', ...approval } as AgentEvent]),
      {
        type: 'tool_result',
        toolCallId: result.toolCallId,
        tool: approval?.tool ?? '',
        ok: result.isError !== true,
        content: result.content,
        durationMs: 0,
      },
    ];
  });
}
