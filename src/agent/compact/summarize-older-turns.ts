import { ProviderError } from '../../providers/provider-error.js';
import { EMPTY_USAGE, type ModelClient, type Usage } from '../../providers/types.js';
import { SUMMARY_INPUT_FRACTION } from './compaction-limits.js';
import { buildDeterministicSummary } from './deterministic-summary.js';
import { capTextTokens, renderTranscript, type TranscriptToRender } from './render-transcript.js';
import { buildSummaryRequest } from './summary-prompt.js';

export interface SummaryOutcome {
  summary: string;
  method: 'model' | 'deterministic';
  /** The summary call's usage; EMPTY_USAGE when it failed before answering. */
  usage: Usage;
}

export interface SummarizeOptions {
  client: ModelClient;
  contextWindow: number;
  redact(text: string): string;
  signal?: AbortSignal | undefined;
}

/**
 * Asks the model once, without tools, for a summary of the older turns (rendered, cut to fit, then
 * redacted before anything is sent). A failure or an empty answer falls back to a deterministic summary;
 * an abort is rethrown, never papered over.
 */
export async function summarizeOlderTurns(
  transcript: TranscriptToRender,
  options: SummarizeOptions,
): Promise<SummaryOutcome> {
  const maxInputTokens = Math.floor(options.contextWindow * SUMMARY_INPUT_FRACTION);
  const rendered = capTextTokens(renderTranscript(transcript), maxInputTokens);
  const request = buildSummaryRequest(options.redact(rendered));
  let usage = EMPTY_USAGE;
  try {
    const result = await options.client.complete(
      request,
      options.signal ? { signal: options.signal } : {},
    );
    usage = result.usage;
    if (result.text.trim() !== '' && result.stopReason !== 'refusal') {
      return { summary: result.text, method: 'model', usage };
    }
  } catch (error) {
    if (isAbort(error, options.signal)) throw error;
  }
  return { summary: buildDeterministicSummary(transcript), method: 'deterministic', usage };
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  if (error instanceof ProviderError) return error.kind === 'aborted';
  return error instanceof Error && error.name === 'AbortError';
}
