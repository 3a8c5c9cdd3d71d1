import type { ModelFacts } from '../../providers/model-facts/model-facts.js';

/** One line of the facts oy builds requests from, for `oy model` and `oy doctor`. */
export function describeModelFacts(facts: ModelFacts): string {
  const parts = [
    `context ${facts.contextWindow} tokens`,
    `output up to ${facts.maxOutputTokens}`,
    `thinking ${facts.thinking}`,
    facts.price
      ? `$${facts.price.input}/$${facts.price.output} per million tokens in/out`
      : 'no known price',
  ];
  if (facts.promptCache) parts.push(`prompt cache from ${facts.minCacheableTokens} tokens`);
  if (facts.inferenceProfileRequired) parts.push('needs an inference profile id');
  if (facts.isLocal) parts.push('local');
  return parts.join(', ');
}
