import { ProviderError } from '../../providers/provider-error.js';
import type { Message, ModelClient, ModelRequest, Usage } from '../../providers/types.js';
import { EMPTY_USAGE } from '../../providers/types.js';
import { addUsage } from '../../providers/pricing/usage-totals.js';
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
    };

/**
 * One map call: the prompt, the model's JSON answer parsed leniently, and one repair attempt with the
 * parse error when the answer is not usable. Provider errors (after the retry wrapper) fail the chunk.
 */
export async function reviewChunk(
  client: ModelClient,
  prompt: { system: string; user: string },
  signal?: AbortSignal,
): Promise<ChunkReview> {
  const messages: Message[] = [{ role: 'user', text: prompt.user }];
  let usage: Usage = { ...EMPTY_USAGE };
  let calls = 0;
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const request: ModelRequest = {
        system: prompt.system,
        messages,
        maxTokens: MAP_MAX_TOKENS,
        cache: { system: true },
      };
      const result = await client.complete(request, signal ? { signal } : {});
      calls++;
      usage = addUsage(usage, result.usage);
      const parsed = parseFindings(result.text);
      if ('findings' in parsed)
        return { status: 'reviewed', findings: parsed.findings, usage, calls };
      if (attempt === 1)
        return { status: 'failed', reason: 'parse', detail: parsed.error, usage, calls };
      messages.push({ role: 'assistant', text: result.text, toolCalls: [] });
      messages.push({ role: 'user', text: renderRepairPrompt(parsed.error) });
    }
  } catch (error) {
    if (error instanceof ProviderError)
      return { status: 'failed', reason: error.kind, detail: error.message, usage, calls, error };
    return { status: 'failed', reason: 'error', detail: (error as Error).message, usage, calls };
  }
  return { status: 'failed', reason: 'parse', detail: 'no answer', usage, calls };
}
