import type { ModelFacts } from './model-facts.js';
import { plannedOutputTokens } from './plan-output-tokens.js';

/**
 * The most input tokens a call can hold so that input plus its planned output (answer and thinking,
 * see planOutputTokens) stays within the model's context window.
 */
export function fitPromptTokens(facts: ModelFacts, answerTokens: number): number {
  return Math.max(0, facts.contextWindow - plannedOutputTokens(facts, answerTokens));
}
