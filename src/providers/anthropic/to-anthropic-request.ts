import type Anthropic from '@anthropic-ai/sdk';
import { modelFactsFor } from '../model-facts/model-facts-for.js';
import { planOutputTokens } from '../model-facts/plan-output-tokens.js';
import { fitToolCallIds } from '../tool-call-ids/fit-tool-call-ids.js';
import { TOOL_CALL_ID_RULES } from '../tool-call-ids/tool-call-id-rules.js';
import type { ModelRef, ModelRequest } from '../types.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

/** Prompt caching's breakpoint: the default five-minute cache. A fresh object each time, as blocks get mutated. */
const ephemeralCache = (): Anthropic.CacheControlEphemeral => ({ type: 'ephemeral' });

/**
 * Our request as a streaming Messages API call. Cache hints become `cache_control` breakpoints on
 * the system block, the last tool and the last block of the last message: at most three of the
 * API's four, and none for a model without prompt caching. `max_tokens` and `thinking` come from the
 * model's facts (planOutputTokens). `temperature` is not sent: API version 2026-10-21 (SDK 1.x) has no
 * sampling parameters.
 */
export function toAnthropicRequest(
  ref: ModelRef,
  request: ModelRequest,
): Anthropic.MessageCreateParamsStreaming {
  const facts = modelFactsFor(ref);
  const cache = facts.promptCache ? (request.cache ?? {}) : {};
  const plan = planOutputTokens(facts, request, 'anthropic');
  const params: Anthropic.MessageCreateParamsStreaming = {
    model: ref.model,
    max_tokens: plan.maxTokens,
    messages: toAnthropicMessages(fitToolCallIds(request.messages, TOOL_CALL_ID_RULES.anthropic)),
    stream: true,
  };
  if (request.system !== '') {
    params.system = [
      {
        type: 'text',
        text: request.system,
        ...(cache.system ? { cache_control: ephemeralCache() } : {}),
      },
    ];
  }
  if (request.tools && request.tools.length > 0) {
    const tools = request.tools.map((tool): Anthropic.Tool => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
    }));
    if (cache.tools) markLast(tools);
    params.tools = tools;
  }
  if (cache.lastMessage) {
    const last = params.messages.at(-1);
    // Our messages always carry block arrays; thinking comes first in a turn, so the last block is never one.
    if (last && Array.isArray(last.content)) markLast(last.content as Anthropic.TextBlockParam[]);
  }
  if (plan.thinking?.type === 'enabled')
    params.thinking = { type: 'enabled', budget_tokens: plan.thinking.budgetTokens };
  else if (plan.thinking?.type === 'adaptive') params.thinking = { type: 'adaptive' };
  return params;
}

/** Puts a cache breakpoint on the last element (every block type we send accepts one). */
function markLast(
  blocks: { cache_control?: Anthropic.CacheControlEphemeral | null | undefined }[],
): void {
  const last = blocks.at(-1);
  if (last) last.cache_control = ephemeralCache();
}
