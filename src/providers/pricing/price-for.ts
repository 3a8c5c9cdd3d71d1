import { BEDROCK_PROFILE_PREFIX } from '../model-id/model-id-prefixes.js';
import type { ModelRef } from '../types.js';
import { PRICE_ENTRIES, type Price } from './price-table.js';

/** Suffixes that name a snapshot of the same model: `-20250929`, `-2024-08-06`, `-latest`. */
const SNAPSHOT_SUFFIX = /^(?:-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)?$/;

/**
 * The price of a model: the config's (`ref.facts.price`, see withConfiguredFacts) over the table's, or
 * undefined when neither knows it (tokens are then shown without a cost, and cost limits are refused).
 */
export function priceFor(ref: ModelRef): Price | undefined {
  return ref.facts?.price ?? tablePriceFor(ref);
}

function tablePriceFor(ref: ModelRef): Price | undefined {
  const name = normalizeModelName(ref);
  for (const entry of PRICE_ENTRIES) {
    if (!entry.providers.includes(ref.provider)) continue;
    const isMatch = entry.models.some(
      (model) => name.startsWith(model) && SNAPSHOT_SUFFIX.test(name.slice(model.length)),
    );
    if (isMatch) {
      const { input, output, cacheWrite, cacheRead } = entry;
      return { input, output, cacheWrite, cacheRead };
    }
  }
  return undefined;
}

/** A Bedrock id or ARN reduced to the Anthropic model name it serves: `us.anthropic.claude-x-20250929-v1:0` -> `claude-x-20250929`. */
export function normalizeModelName(ref: ModelRef): string {
  let name = ref.model.toLowerCase();
  if (ref.provider === 'bedrock') {
    name = name.slice(name.lastIndexOf('/') + 1);
    name = name
      .replace(BEDROCK_PROFILE_PREFIX, '')
      .replace(/^anthropic\./, '')
      .replace(/-v\d+(?::\d+)?$/, '');
  }
  return name;
}
