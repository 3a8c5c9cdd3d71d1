import table from './prices.json' with { type: 'json' };
import type { ProviderName } from '../types.js';

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface PriceEntry extends Price {
  /** Model names without date or -latest suffixes. */
  models: string[];
  providers: ProviderName[];
  /** Full oy ids `oy model` lists for providers without an SDK model list. */
  catalogue: string[];
}

/** The data file, typed; a unit test checks every entry's shape and numbers. */
export const PRICE_ENTRIES: readonly PriceEntry[] = table.prices as PriceEntry[];
