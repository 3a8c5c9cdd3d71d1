/**
 * Bytes per token for an estimate: the usual rule of thumb for code and English text under
 * o200k_base and cl100k_base (how close it comes on real trees: docs/benchmarks.md).
 */
export const ESTIMATE_BYTES_PER_TOKEN = 4;

/**
 * A token estimate from a file's size, for a file the model is never sent under the run's scope:
 * its count only feeds the plan's display, and counting it exactly would cost as much as counting
 * a file that is sent. Never used for anything that is chunked: chunks need exact counts.
 */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / ESTIMATE_BYTES_PER_TOKEN);
}
