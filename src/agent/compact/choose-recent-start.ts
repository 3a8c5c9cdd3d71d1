import type { Message } from '../../providers/types.js';
import { RECENT_EXCHANGES_KEPT, RECENT_MAX_FRACTION } from './compaction-limits.js';
import { estimateRequestTokens } from './estimate-tokens.js';
import { findExchangeStarts } from './split-exchanges.js';

/** Where the most recent RECENT_EXCHANGES_KEPT exchanges after `bodyFrom` begin (`messages.length` when there are none). */
export function findRecentStart(messages: readonly Message[], bodyFrom: number): number {
  const starts = findExchangeStarts(messages, bodyFrom);
  return starts[Math.max(0, starts.length - RECENT_EXCHANGES_KEPT)] ?? messages.length;
}

/**
 * Where the verbatim tail begins for a summary: the recent exchanges, fewer when they alone would take more
 * than RECENT_MAX_FRACTION of the window (never fewer than one). Always an exchange start, so no tool call
 * is cut from its result. Undefined when nothing lies between `bodyFrom` and the tail to summarize.
 */
export function chooseSummaryCut(
  messages: readonly Message[],
  bodyFrom: number,
  contextWindow: number,
): number | undefined {
  const starts = findExchangeStarts(messages, bodyFrom);
  const budget = contextWindow * RECENT_MAX_FRACTION;
  let first = Math.max(0, starts.length - RECENT_EXCHANGES_KEPT);
  while (first < starts.length - 1 && tokensFrom(messages, starts[first]!) > budget) first += 1;
  return first === 0 ? undefined : starts[first];
}

function tokensFrom(messages: readonly Message[], start: number): number {
  return estimateRequestTokens({ system: '', messages: messages.slice(start), tools: [] });
}
