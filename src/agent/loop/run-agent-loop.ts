import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { plannedOutputTokens } from '../../providers/model-facts/plan-output-tokens.js';
import type { Message, ModelRequest, ToolDefinition } from '../../providers/types.js';
import type { AgentEvent, LoopStopReason } from '../events.js';
import type { AgentTool } from '../tools/tool-types.js';
import { createToolContextFactory } from './create-tool-context-factory.js';
import {
  callModel,
  toAssistantMessage,
  type ModelCallResult,
  type PartialAnswer,
} from './call-model.js';
import {
  DEFAULT_MAX_OUTPUT_TOKENS,
  DEFAULT_MAX_MODEL_CALLS,
  type AgentLoopOptions,
} from './loop-options.js';
import { RepeatGuard } from './repeat-guard.js';
import { createHookRunner } from '../hooks/run-hooks.js';
import { recordAnswers } from '../session/record-answers.js';
import { describeCallFailure } from '../session/describe-call-failure.js';
import { reportHooks, runToolBatch } from './run-tool-batch.js';
import { UsageMeter } from './usage-meter.js';

export { createAgentState, type AgentState } from './agent-state.js';
export type { AgentLoopOptions } from './loop-options.js';

/** Cache breakpoints on the system prompt, the tools and the latest turn (README.md "Agent mode", Anthropic caching). */
const CACHE_HINTS = { system: true, tools: true, lastMessage: true } as const;

interface Stop {
  reason: LoopStopReason;
  notice?: string;
}

/**
 * One user turn of the agent: the model answers, its tool calls are authorized and run, results go
 * back, until it answers without tools, a cap ends it (then it is asked for a summary), the signal
 * aborts it, or the provider fails. Yields typed events; the last one is always `done`.
 */
export async function* runAgentLoop(options: AgentLoopOptions): AsyncGenerator<AgentEvent, void> {
  const { state, session } = options;
  const turn = state.turns + 1;
  // Every answer of the turn, compaction's included, is saved for `oy run --replay`.
  const client = session
    ? recordAnswers(options.client, session, turn, options.redact)
    : options.client;
  const signal = options.signal ?? new AbortController().signal;
  const now = options.now ?? Date.now;
  const maxModelCalls = options.maxModelCalls ?? DEFAULT_MAX_MODEL_CALLS;
  const maxCostUsd = options.maxCostUsd ?? null;
  const meter = new UsageMeter(client.ref, state);
  const tools = new Map(options.tools.map((tool) => [tool.name as string, tool]));
  const offered = (options.offeredTools ?? options.tools).map(toDefinition);
  const guard = new RepeatGuard();
  const todoSaves: Promise<void>[] = [];
  let modelCalls = 0;
  let answer = '';
  let stop: Stop | undefined;
  const partial: PartialAnswer = { text: '' };

  const append = async (message: Message) => {
    state.messages.push(message);
    await session?.appendMessage(turn, message);
  };
  const request = (system: string): ModelRequest => ({
    system,
    messages: state.messages,
    tools: offered,
    maxTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    cache: CACHE_HINTS,
  });
  const makeContext = createToolContextFactory(options, turn, signal, now, todoSaves);
  const hooks = createHookRunner({
    hooks: options.hooks ?? {},
    workspaceRoot: options.workspaceRoot,
    sessionId: session?.id,
    mode: options.mode,
    shell: options.shell,
    redact: options.redact,
  });

  const prompt = options.redact(options.prompt);
  const submitted = await hooks?.('UserPromptSubmit', { prompt }, signal);
  yield* reportHooks(submitted);
  if (submitted?.blocked !== undefined) {
    const notice = `the prompt was blocked by a UserPromptSubmit hook: ${submitted.blocked}`;
    yield { type: 'error', kind: 'hook', message: notice };
    yield {
      type: 'done',
      stopReason: 'cancelled',
      answer: '',
      modelCalls: 0,
      usage: meter.runUsage(),
      costUsd: 0,
      notice,
    };
    return;
  }
  options.checkpoints?.beginTurn(turn);
  await append({ role: 'user', text: prompt });
  if (maxCostUsd !== null && !meter.isPriced) {
    yield {
      type: 'error',
      kind: 'warning',
      message: `the cost cap cannot be checked: no price is known for ${client.ref.id}`,
    };
  }

  while (stop === undefined) {
    if (signal.aborted) {
      stop = { reason: 'cancelled', notice: 'cancelled by the user' };
      break;
    }
    if (modelCalls >= maxModelCalls) {
      stop = {
        reason: 'max_turns',
        notice: `stopped after ${maxModelCalls} model calls (the turn cap)`,
      };
      break;
    }
    let result: ModelCallResult;
    partial.text = '';
    try {
      const system = options.system(state.todos);
      yield* compactIfNeeded(system);
      result = yield* callModel(client, request(system), partial, signal);
    } catch (error) {
      if (signal.aborted) {
        stop = { reason: 'cancelled', notice: 'cancelled by the user' };
      } else {
        yield errorEvent(error);
        const notice =
          describeCallFailure(error).kind === 'replay'
            ? 'the replay diverged'
            : 'the model call failed';
        stop = { reason: 'error', notice };
      }
      break;
    }
    modelCalls += 1;
    partial.text = '';
    yield meter.add(result.usage);
    await append(toAssistantMessage(result.text, result.toolCalls, result.thinking));
    if (result.text.trim() !== '') answer = result.text;
    if (result.toolCalls.length === 0) {
      const stopping = await hooks?.('Stop', { answer: result.text }, signal);
      yield* reportHooks(stopping);
      // A Stop hook that blocks sends its reason back, and the model goes on (within --max-turns).
      if (stopping?.blocked === undefined) {
        stop = { reason: 'completed' };
        break;
      }
      await append({ role: 'user', text: `[Stop hook] ${stopping.blocked}` });
      continue;
    }
    const cost = meter.run.costUsd;
    const isOverBudget = maxCostUsd !== null && cost !== null && cost >= maxCostUsd;
    const costNotice = `stopped at $${(cost ?? 0).toFixed(4)}, the cost cap of $${maxCostUsd ?? 0}`;
    const batch = yield* runToolBatch(
      result.toolCalls,
      { tools, guard, makeContext, signal, now, ...(hooks ? { hooks } : {}) },
      isOverBudget ? 'the cost cap was reached' : undefined,
    );
    await Promise.all(todoSaves.splice(0));
    await append(batch.message);
    if (batch.stop) stop = batch.stop;
    else if (isOverBudget) stop = { reason: 'max_cost', notice: costNotice };
  }

  if (
    stop.reason === 'max_turns' ||
    stop.reason === 'max_cost' ||
    stop.reason === 'repeated_call'
  ) {
    const summary = yield* askForSummary(stop.notice ?? stop.reason);
    if (summary === undefined) stop = { reason: 'cancelled', notice: 'cancelled by the user' };
    else answer = summary;
  } else if (stop.reason !== 'completed') {
    await closeTranscript(
      stop.reason === 'cancelled' ? 'interrupted by the user' : 'the model call failed',
    );
  }
  await Promise.all(todoSaves.splice(0));
  await session?.endTurn(turn, meter.runUsage(), meter.run.costUsd);
  state.turns = turn;
  yield {
    type: 'done',
    stopReason: stop.reason,
    answer,
    modelCalls,
    usage: meter.runUsage(),
    costUsd: meter.run.costUsd,
    ...(session ? { sessionId: session.id } : {}),
    ...(stop.notice === undefined ? {} : { notice: stop.notice }),
  };

  async function* compactIfNeeded(system: string): AsyncGenerator<AgentEvent, void> {
    if (options.compaction === undefined) return;
    const compacted = await options.compaction.compact({
      client,
      system,
      messages: state.messages,
      tools: offered,
      contextWindow: options.compaction.contextWindow,
      outputTokens: plannedOutputTokens(modelFactsFor(client.ref), DEFAULT_MAX_OUTPUT_TOKENS),
      redact: options.redact,
      signal,
    });
    if (compacted === undefined) return;
    state.messages = compacted.messages;
    await session?.saveCompaction(
      compacted.messages,
      compacted.tokensBefore,
      compacted.tokensAfter,
    );
    const { tokensBefore, tokensAfter, method } = compacted;
    yield { type: 'compacted', tokensBefore, tokensAfter, method };
    if (compacted.usage.inputTokens + compacted.usage.outputTokens > 0)
      yield meter.add(compacted.usage);
  }

  /** A cap ended the loop: the model is asked once, without running tools, where it stands (undefined: cancelled). */
  async function* askForSummary(why: string): AsyncGenerator<AgentEvent, string | undefined> {
    await append({
      role: 'user',
      text:
        `[oy] The run is stopping: ${why}. Do not call any tools. In a few sentences, summarise ` +
        'where you stand: what is done, what remains, and what the user should check.',
    });
    try {
      const summary = yield* callModel(
        client,
        request(options.system(state.todos)),
        partial,
        signal,
      );
      modelCalls += 1;
      yield meter.add(summary.usage);
      // Tool calls in a summary are not run; dropping them keeps the transcript valid.
      await append(toAssistantMessage(summary.text, [], summary.thinking));
      return summary.text.trim() === '' ? why : summary.text;
    } catch (error) {
      if (signal.aborted) {
        await closeTranscript('interrupted by the user');
        return undefined;
      }
      yield errorEvent(error);
      await closeTranscript('the summary call failed');
      return why;
    }
  }

  /** A failed call as the user and `--json` see it; its message passes the redactor like everything else. */
  function errorEvent(error: unknown): AgentEvent {
    const { kind, message } = describeCallFailure(error);
    return { type: 'error', message: options.redact(message), kind };
  }

  /** After a cancel or a failure the model still owes an answer; say so, so the next turn is a valid transcript. */
  async function closeTranscript(why: string): Promise<void> {
    const last = state.messages.at(-1);
    if (last?.role === 'assistant') return;
    const text = partial.text.trim() === '' ? `[${why}]` : `${partial.text}\n[${why}]`;
    await append({ role: 'assistant', text, toolCalls: [] });
  }
}

function toDefinition(tool: AgentTool): ToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
