import type { Message, ModelRequest, ThinkingSource } from '../types.js';
import type { ModelFacts } from './model-facts.js';

/** Claude's smallest thinking budget (Anthropic API and Bedrock alike). */
export const MIN_THINKING_BUDGET_TOKENS = 1024;
/** Room for thinking on models that think unasked (adaptive, always), so the answer keeps its own share. */
export const THINKING_HEADROOM_TOKENS = 16_384;

export type ThinkingSetting = { type: 'enabled'; budgetTokens: number } | { type: 'adaptive' };

export interface OutputPlan {
  /** The wire `max_tokens`: thinking plus answer, never above the model's limit. */
  maxTokens: number;
  /** The thinking field to send; absent: leave the model's default. */
  thinking?: ThinkingSetting;
}

/**
 * `request.maxTokens` is the answer's share; thinking tokens count against the same wire `max_tokens`, so
 * thinking is added on top (up to the model's limit) rather than carved out of the answer. A budget that
 * cannot fit with at least the minimum is dropped rather than sent invalid, and so is one for a tool loop
 * whose last turn carries no thinking from `source` (budgeted thinking requires that turn to start with it).
 */
export function planOutputTokens(
  facts: ModelFacts,
  request: ModelRequest,
  source?: ThinkingSource,
): OutputPlan {
  const limit = facts.maxOutputTokens;
  const answer = Math.max(1, Math.min(request.maxTokens, limit));
  const wanted = request.reasoningBudgetTokens;
  switch (facts.thinking) {
    case 'none':
      return { maxTokens: answer };
    case 'budgeted': {
      if (wanted === undefined) return { maxTokens: answer };
      if (source !== undefined && isToolLoopWithoutThinking(request.messages, source))
        return { maxTokens: answer };
      const total = Math.min(
        limit,
        request.maxTokens + Math.max(wanted, MIN_THINKING_BUDGET_TOKENS),
      );
      const budget = Math.min(Math.max(wanted, MIN_THINKING_BUDGET_TOKENS), total - 1);
      if (budget < MIN_THINKING_BUDGET_TOKENS) return { maxTokens: answer };
      return { maxTokens: total, thinking: { type: 'enabled', budgetTokens: budget } };
    }
    case 'adaptive':
    case 'always': {
      const maxTokens = Math.min(limit, request.maxTokens + (wanted ?? THINKING_HEADROOM_TOKENS));
      return wanted !== undefined && facts.thinking === 'adaptive'
        ? { maxTokens, thinking: { type: 'adaptive' } }
        : { maxTokens };
    }
  }
}

/** The request answers tool calls whose turn has no thinking from this service to start with. */
function isToolLoopWithoutThinking(messages: readonly Message[], source: ThinkingSource): boolean {
  if (messages.at(-1)?.role !== 'tool') return false;
  const turn = messages.findLast((message) => message.role === 'assistant');
  return !(turn?.thinking ?? []).some((part) => part.source === source);
}

/** The wire `max_tokens` a request with this answer share gets (thinking's room included): input must leave it. */
export function plannedOutputTokens(facts: ModelFacts, answerTokens: number): number {
  return planOutputTokens(facts, { system: '', messages: [], maxTokens: answerTokens }).maxTokens;
}
