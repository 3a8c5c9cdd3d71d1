import type { ProviderName } from '../types.js';
import { PRICE_ENTRIES } from './price-table.js';

/** The catalogue ids the price table lists for a provider (`oy model` shows them for OpenAI and Bedrock). */
export function listPricedModelIds(provider: ProviderName): string[] {
  const prefix = `${provider}::`;
  return PRICE_ENTRIES.flatMap((entry) => entry.catalogue).filter((id) => id.startsWith(prefix));
}
