import type { Usage } from '../types.js';
import type { Price } from './price-table.js';

const TOKENS_PER_MILLION = 1_000_000;

/**
 * The cost of one call in USD. `inputTokens` are the uncached input tokens (Anthropic's convention,
 * which every client normalises to); cache reads and writes are priced on their own.
 */
export function costOf(usage: Usage, price: Price): number {
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheWriteTokens * price.cacheWrite +
      usage.cacheReadTokens * price.cacheRead) /
    TOKENS_PER_MILLION
  );
}
