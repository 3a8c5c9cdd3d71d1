import type { Message, ToolCall, ToolResult } from '../../providers/types.js';
import type { AgentEvent, StopReason } from '../events.js';
import type { AgentTool, ToolContext } from '../tools/tool-types.js';
import { forwardEvents } from './forward-events.js';
import { REPEAT_STOP_COUNT, type RepeatGuard } from './repeat-guard.js';
import { runToolCall, withNote } from './run-tool-call.js';

export interface ToolBatchDeps {
  tools: ReadonlyMap<string, AgentTool>;
  guard: RepeatGuard;
  makeContext(toolCallId: string, emit: (event: AgentEvent) => void): ToolContext;
  signal: AbortSignal;
  now(): number;
}

export interface ToolBatchOutcome {
  message: Extract<Message, { role: 'tool' }>;
  stop?: { reason: Extract<StopReason, 'repeated_call' | 'cancelled'>; notice: string };
}

/**
 * Runs one answer's tool calls in order. Every call gets a result, even when it is not run (a cap,
 * a cancel, a repeat), so the transcript stays valid for every provider.
 */
export async function* runToolBatch(
  calls: readonly ToolCall[],
  deps: ToolBatchDeps,
  skipReason?: string,
): AsyncGenerator<AgentEvent, ToolBatchOutcome> {
  const results: ToolResult[] = [];
  let stop: ToolBatchOutcome['stop'];
  for (const call of calls) {
    yield { type: 'tool_call', call };
    const started = deps.now();
    let ok = false;
    let content: string;
    if (stop === undefined && deps.signal.aborted)
      stop = { reason: 'cancelled', notice: 'cancelled by the user' };
    const notRun = skipReason ?? stop?.notice;
    if (notRun !== undefined) {
      content = JSON.stringify({ ok: false, error: `not run: ${notRun}` });
    } else {
      const verdict = deps.guard.observe(call);
      if (verdict.shouldStop) {
        const notice = `the model made the same ${call.name} call ${REPEAT_STOP_COUNT} times in a row, so the run stopped`;
        stop = { reason: 'repeated_call', notice };
        content = JSON.stringify({ ok: false, error: `not run: ${notice}` });
      } else {
        const result = yield* forwardEvents((emit) =>
          runToolCall(call, deps.tools, deps.makeContext(call.id, emit)),
        );
        ok = result.ok;
        content =
          verdict.nudge === undefined ? result.content : withNote(result.content, verdict.nudge);
      }
    }
    results.push({ toolCallId: call.id, content, ...(ok ? {} : { isError: true }) });
    yield {
      type: 'tool_result',
      toolCallId: call.id,
      tool: call.name,
      ok,
      content,
      durationMs: Math.max(0, deps.now() - started),
    };
  }
  if (stop === undefined && deps.signal.aborted)
    stop = { reason: 'cancelled', notice: 'cancelled by the user' };
  return { message: { role: 'tool', results }, ...(stop === undefined ? {} : { stop }) };
}
