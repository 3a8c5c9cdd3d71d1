import type { ModelFacts } from '../model-facts/model-facts.js';
import type { Price } from './price-table.js';

/** The model's price for a batch request: every rate times its `batchPriceRatio`; undefined when either is unknown. */
export function batchPriceFor(
  facts: Pick<ModelFacts, 'price' | 'batchPriceRatio'>,
): Price | undefined {
  const { price, batchPriceRatio: ratio } = facts;
  if (price === undefined || ratio === null) return undefined;
  return {
    input: price.input * ratio,
    output: price.output * ratio,
    cacheWrite: price.cacheWrite * ratio,
    cacheRead: price.cacheRead * ratio,
  };
}
