import type { ThinkingKind } from '../../../src/providers/model-facts/model-facts.js';

/** The smallest thinking budget Claude accepts, on the Anthropic API and on Bedrock alike. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

export interface ThinkingRequest {
  /** `default`: no thinking field, the model's own default. */
  type: 'default' | 'enabled' | 'adaptive' | 'disabled' | 'between_tools';
  isOn: boolean;
  budgetTokens?: number;
  hasBudgetField?: boolean;
}

/** Claude's thinking rules (extended and adaptive thinking pages), as a message, or undefined when valid. */
export function checkThinkingBudget(
  thinking: ThinkingRequest,
  maxTokens: number,
  kind: ThinkingKind,
): string | undefined {
  if (thinking.type === 'enabled') {
    if (kind === 'adaptive' || kind === 'always')
      return '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';
    if (kind === 'none') return 'thinking: this model does not support extended thinking';
    if (thinking.budgetTokens === undefined)
      return 'thinking.enabled.budget_tokens: Field required';
    if (thinking.budgetTokens < MIN_THINKING_BUDGET_TOKENS)
      return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET_TOKENS}`;
    if (thinking.budgetTokens >= maxTokens)
      return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  }
  if (thinking.type === 'adaptive') {
    if (kind === 'none' || kind === 'budgeted')
      return '"thinking.type.adaptive" is not supported for this model. Use "thinking.type.enabled" with "budget_tokens".';
    if (thinking.hasBudgetField)
      return 'thinking.adaptive.budget_tokens: Extra inputs are not permitted';
  }
  if (thinking.type === 'disabled' && kind === 'always')
    return 'thinking: "thinking.type.disabled" is not supported for this model.';
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
