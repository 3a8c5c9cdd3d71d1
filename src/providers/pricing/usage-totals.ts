import { EMPTY_USAGE, type Usage } from '../types.js';
import { costOf } from './cost-of.js';
import type { Price } from './price-table.js';

/** Tokens and cost summed over calls; `costUsd` is null once any call's price was unknown. */
export interface UsageTotals extends Usage {
  costUsd: number | null;
}

export const EMPTY_TOTALS: UsageTotals = { ...EMPTY_USAGE, costUsd: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/** Adds one call's usage, priced with `price` (undefined: unknown model, so the total cost becomes unknown). */
export function addToTotals(
  totals: UsageTotals,
  usage: Usage,
  price: Price | undefined,
): UsageTotals {
  const costUsd =
    totals.costUsd === null || price === undefined ? null : totals.costUsd + costOf(usage, price);
  return { ...addUsage(totals, usage), costUsd };
}
