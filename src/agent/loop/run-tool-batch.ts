import type { Message, ToolCall, ToolResult } from '../../providers/types.js';
import type { AgentEvent, LoopStopReason } from '../events.js';
import type { HookOutcome, HookRunner } from '../hooks/run-hooks.js';
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
  /** The user's PreToolUse and PostToolUse hooks, when there are any. */
  hooks?: HookRunner;
}

export interface ToolBatchOutcome {
  message: Extract<Message, { role: 'tool' }>;
  stop?: { reason: Extract<LoopStopReason, 'repeated_call' | 'cancelled'>; notice: string };
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
        const hookFields = { tool_name: call.name, tool_input: call.arguments };
        const pre = await deps.hooks?.('PreToolUse', hookFields, deps.signal);
        yield* reportHooks(pre);
        if (pre?.blocked !== undefined) {
          content = JSON.stringify({
            ok: false,
            error: `blocked by a PreToolUse hook: ${pre.blocked}`,
          });
        } else {
          const result = yield* forwardEvents((emit) =>
            runToolCall(call, deps.tools, deps.makeContext(call.id, emit)),
          );
          ok = result.ok;
          content =
            verdict.nudge === undefined ? result.content : withNote(result.content, verdict.nudge);
          const post = await deps.hooks?.(
            'PostToolUse',
            { ...hookFields, tool_response: content },
            deps.signal,
          );
          yield* reportHooks(post);
          if (post?.blocked !== undefined)
            content = withNote(content, `feedback from a PostToolUse hook: ${post.blocked}`);
        }
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

/** Hooks that failed (not those that blocked) are reported, and the run goes on. */
export function* reportHooks(outcome: HookOutcome | undefined): Generator<AgentEvent, void> {
  for (const message of outcome?.reports ?? []) yield { type: 'error', kind: 'warning', message };
}
