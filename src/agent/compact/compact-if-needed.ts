import {
  EMPTY_USAGE,
  type Message,
  type ModelClient,
  type ToolDefinition,
  type Usage,
} from '../../providers/types.js';
import { assembleCompacted, splitEarlierSummary } from './assemble-compacted.js';
import { chooseSummaryCut, findRecentStart } from './choose-recent-start.js';
import { COMPACT_AT_FRACTION } from './compaction-limits.js';
import { estimateRequestTokens } from './estimate-tokens.js';
import { shortenToolOutputs } from './shorten-tool-outputs.js';
import { summarizeOlderTurns } from './summarize-older-turns.js';

export { COMPACT_AT_FRACTION } from './compaction-limits.js';

export interface CompactionInput {
  client: ModelClient;
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  /** In tokens, from contextWindowFor(). */
  contextWindow: number;
  /** The next call's planned `max_tokens` (thinking's room included): the prompt must leave it free. */
  outputTokens?: number;
  /** Applied to everything the summary call sends, and to the summary itself. */
  redact(text: string): string;
  signal?: AbortSignal;
  /** `/compact`: compact whatever the size, and go on to a summary even when shortening would do. */
  force?: boolean;
}

export interface CompactionResult {
  messages: Message[];
  /** Estimates (estimateRequestTokens) of the whole request, system and tools included. */
  tokensBefore: number;
  tokensAfter: number;
  method: 'shortened' | 'model' | 'deterministic';
  /** The summary call's usage; EMPTY_USAGE when there was none. */
  usage: Usage;
}

/**
 * Keeps the request under COMPACT_AT_FRACTION of the context window, and under what the planned output
 * leaves of it: first shortens old tool outputs, then
 * replaces the older turns with a summary, keeping the first user message and the recent exchanges
 * verbatim. Undefined when nothing needs doing: under the threshold and not forced, or nothing older to
 * shorten or summarize. Never throws for a model failure (falls back to a deterministic summary); an
 * abort through `signal` is rethrown.
 */
export async function compactIfNeeded(
  input: CompactionInput,
): Promise<CompactionResult | undefined> {
  const measure = (messages: readonly Message[]): number =>
    estimateRequestTokens({ system: input.system, messages, tools: input.tools });
  // Usually the fraction decides; with a small window and a model that thinks, the output's room does.
  const threshold = Math.min(
    COMPACT_AT_FRACTION * input.contextWindow,
    input.contextWindow - (input.outputTokens ?? 0),
  );
  const isForced = input.force ?? false;
  const tokensBefore = measure(input.messages);
  if (!isForced && tokensBefore < threshold) return undefined;

  const first = input.messages[0]?.role === 'user' ? input.messages[0] : undefined;
  const bodyFrom = first ? 1 : 0;
  const shortened = shortenToolOutputs(input.messages, findRecentStart(input.messages, bodyFrom));
  const isShortened = shortened.some((message, index) => message !== input.messages[index]);
  const shortenedResult: CompactionResult = {
    messages: shortened,
    tokensBefore,
    tokensAfter: measure(shortened),
    method: 'shortened',
    usage: EMPTY_USAGE,
  };
  if (!isForced && isShortened && shortenedResult.tokensAfter < threshold) return shortenedResult;

  const cut = chooseSummaryCut(shortened, bodyFrom, input.contextWindow);
  if (cut === undefined) return isShortened ? shortenedResult : undefined;
  const split = first ? splitEarlierSummary(first) : undefined;
  const outcome = await summarizeOlderTurns(
    {
      firstUserText: split?.original.text,
      earlierSummary: split?.earlierSummary,
      // The originals: the deterministic summary reads exit codes and errors from whole outputs.
      older: input.messages.slice(bodyFrom, cut),
    },
    {
      client: input.client,
      contextWindow: input.contextWindow,
      redact: input.redact,
      signal: input.signal,
    },
  );
  const summary = input.redact(outcome.summary);
  const messages = assembleCompacted(split?.original, summary, shortened.slice(cut));
  return {
    messages,
    tokensBefore,
    tokensAfter: measure(messages),
    method: outcome.method,
    usage: outcome.usage,
  };
}
