import type { ServiceModel } from './service-models.js';

/** The smallest thinking budget Claude accepts, on the Anthropic API and on Bedrock alike. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

export interface ThinkingRequest {
  /** `default`: no thinking field, the model's own default. */
  type: 'default' | 'enabled' | 'adaptive' | 'disabled' | 'between_tools';
  isOn: boolean;
  budgetTokens?: number;
  hasBudgetField?: boolean;
}

/** The thinking field as sent (`thinking` on the Anthropic API, inside `additionalModelRequestFields` on Bedrock). */
export function readThinkingField(
  thinking: unknown,
  model: ServiceModel,
): ThinkingRequest | string {
  if (thinking === undefined) return { type: 'default', isOn: model.isThinkingByDefault };
  if (!isRecord(thinking)) return 'thinking: Input should be an object';
  const type = thinking.type;
  if (type !== 'enabled' && type !== 'adaptive' && type !== 'disabled' && type !== 'between_tools')
    return `thinking.type: Input tag '${String(type)}' is not one of the expected tags`;
  return {
    type,
    isOn: type !== 'disabled',
    ...(typeof thinking.budget_tokens === 'number' ? { budgetTokens: thinking.budget_tokens } : {}),
    hasBudgetField: 'budget_tokens' in thinking,
  };
}

/** Claude's thinking rules (thinking pages and the error reference), as a message, or undefined when valid. */
export function checkThinkingBudget(
  thinking: ThinkingRequest,
  maxTokens: number,
  model: ServiceModel,
): string | undefined {
  if (thinking.type === 'enabled') {
    if (!model.takesEnabled)
      return model.takesAdaptive
        ? '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.'
        : 'thinking: this model does not support extended thinking';
    if (thinking.budgetTokens === undefined)
      return 'thinking.enabled.budget_tokens: Field required';
    if (thinking.budgetTokens < MIN_THINKING_BUDGET_TOKENS)
      return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET_TOKENS}`;
    if (thinking.budgetTokens >= maxTokens)
      return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  }
  if (thinking.type === 'adaptive') {
    if (!model.takesAdaptive)
      return '"thinking.type.adaptive" is not supported for this model. Use "thinking.type.enabled" with "budget_tokens".';
    if (thinking.hasBudgetField)
      return 'thinking.adaptive.budget_tokens: Extra inputs are not permitted';
  }
  if (thinking.type === 'disabled' && !model.takesDisabled)
    return 'thinking: "thinking.type.disabled" is not supported for this model.';
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
