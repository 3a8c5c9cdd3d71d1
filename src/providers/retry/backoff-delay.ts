import { MAX_RETRY_AFTER_MS } from './parse-retry-after.js';

export interface BackoffSettings {
  baseDelayMs: number;
  maxDelayMs: number;
  /** A number in [0, 1). */
  random: () => number;
}

/**
 * The wait before attempt `failedAttempt + 1`: exponential backoff with full jitter
 * (a random wait up to base × 2^(n-1), capped), but never less than the provider's Retry-After.
 */
export function backoffDelay(
  failedAttempt: number,
  retryAfterMs: number | undefined,
  settings: BackoffSettings,
): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (failedAttempt - 1));
  const jittered = Math.floor(settings.random() * ceiling);
  if (retryAfterMs === undefined) return jittered;
  return Math.max(jittered, Math.min(Math.max(retryAfterMs, 0), MAX_RETRY_AFTER_MS));
}
