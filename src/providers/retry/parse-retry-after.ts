/** Longest wait oy makes between two attempts, whatever Retry-After asks (README.md "Models and providers"): a minute. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait a Retry-After header asks for, in milliseconds, as asked (callers cap what they wait): either
 * delta-seconds (`"2"`, `"1.5"`) or an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date names its day and month; a bare number that is not delta-seconds (`-5`) is unreadable.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(date - now, 0);
}

/** `retry-after-ms`, which Anthropic and OpenAI send beside `retry-after` with more precision, as asked. */
export function parseRetryAfterMs(value: string | null | undefined): number | undefined {
  const ms =
    value === null || value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms) : undefined;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A wait for people: `2 s`, `10 min`, `3 h`, `11 days`. */
export function describeWait(ms: number): string {
  if (ms < MINUTE_MS) return `${Math.ceil(ms / SECOND_MS)} s`;
  if (ms < HOUR_MS) return `${Math.ceil(ms / MINUTE_MS)} min`;
  if (ms < DAY_MS) return `${Math.ceil(ms / HOUR_MS)} h`;
  return `${Math.ceil(ms / DAY_MS)} days`;
}
