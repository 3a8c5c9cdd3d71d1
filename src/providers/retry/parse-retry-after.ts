/** Longest wait a Retry-After header may impose (README.md "Models and providers"): a minute. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait a Retry-After header asks for, in milliseconds, capped at a minute: either
 * delta-seconds (`"2"`, `"1.5"`) or an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text))
    return Math.min(Math.round(Number(text) * 1000), MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(date - now, 0), MAX_RETRY_AFTER_MS);
}
