import { ProviderError } from '../../providers/provider-error.js';
import type {
  Message,
  ModelClient,
  ModelRequest,
  ModelResult,
  Usage,
} from '../../providers/types.js';
import { EMPTY_USAGE } from '../../providers/types.js';
import { addUsage } from '../../providers/pricing/usage-totals.js';
import { judgeAnswerEnd } from './judge-answer-end.js';
import { parseFindings, renderRepairPrompt } from './parse-findings.js';
import type { RawFinding } from './raw-finding.js';

/** Answer budget for one map call: room for a few dozen detailed findings. */
export const MAP_MAX_TOKENS = 8192;

export type ChunkReview =
  | { status: 'reviewed'; findings: RawFinding[]; usage: Usage; calls: number }
  | {
      status: 'failed';
      reason: string;
      detail: string;
      usage: Usage;
      calls: number;
      /** The provider's classified error, when a provider call is what failed. */
      error?: ProviderError;
      /** Whether a smaller chunk could succeed: the answer or the prompt did not fit. */
      isTooLarge: boolean;
    };

/** The request of a map call, online or in a batch: the same bytes either way. */
export function mapRequest(system: string, messages: Message[]): ModelRequest {
  return { system, messages, maxTokens: MAP_MAX_TOKENS, cache: { system: true } };
}

/**
 * One map call: the prompt, the model's JSON answer parsed leniently, and one repair attempt with the
 * parse error when the answer is not usable. Only a whole answer is read (`judgeAnswerEnd`): one cut
 * off, refused or paused fails the chunk, however well its text parses. Provider errors (after the
 * retry wrapper) fail the chunk. `first` is an answer to the first call already in hand (a batch result,
 * counted by its caller): it is judged and parsed exactly as an online one, and only a repair goes online.
 */
export async function reviewChunk(
  client: ModelClient,
  prompt: { system: string; user: string },
  signal?: AbortSignal,
  first?: ModelResult,
): Promise<ChunkReview> {
  const messages: Message[] = [{ role: 'user', text: prompt.user }];
  let usage: Usage = { ...EMPTY_USAGE };
  let calls = 0;
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const request = mapRequest(prompt.system, messages);
      const isAnswered = attempt === 0 && first !== undefined;
      const result = isAnswered ? first : await client.complete(request, signal ? { signal } : {});
      if (!isAnswered) {
        calls++;
        usage = addUsage(usage, result.usage);
      }
      const end = judgeAnswerEnd(result.stopReason);
      if (!end.isWhole) {
        const isTooLarge = end.reason === 'truncated';
        return {
          status: 'failed',
          reason: end.reason,
          detail: end.detail,
          usage,
          calls,
          isTooLarge,
        };
      }
      const parsed = parseFindings(result.text);
      if ('findings' in parsed)
        return { status: 'reviewed', findings: parsed.findings, usage, calls };
      if (attempt === 1)
        return {
          status: 'failed',
          reason: 'parse',
          detail: parsed.error,
          usage,
          calls,
          isTooLarge: false,
        };
      messages.push({ role: 'assistant', text: result.text, toolCalls: [] });
      messages.push({ role: 'user', text: renderRepairPrompt(parsed.error) });
    }
  } catch (error) {
    if (error instanceof ProviderError) {
      const isTooLarge = error.kind === 'context_too_long';
      return {
        status: 'failed',
        reason: error.kind,
        detail: error.message,
        usage,
        calls,
        error,
        isTooLarge,
      };
    }
    const detail = (error as Error).message;
    return { status: 'failed', reason: 'error', detail, usage, calls, isTooLarge: false };
  }
  return {
    status: 'failed',
    reason: 'parse',
    detail: 'no answer',
    usage,
    calls,
    isTooLarge: false,
  };
}
