// A fixed locale, so a report reads the same on every machine.
const COUNT_FORMAT = new Intl.NumberFormat('en-US');
const MS_PER_SECOND = 1000;
const SECONDS_PER_MINUTE = 60;

/** A whole count with thousands separators: `12,345`. */
export function formatCount(count: number): string {
  return COUNT_FORMAT.format(count);
}

/** US dollars: cents from one dollar up, four decimals below, where one call costs fractions of a cent. */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(usd >= 1 ? 2 : 4)}`;
}

/** A duration for people: `850 ms`, `12.3 s`, `4 min 05 s`. */
export function formatDuration(ms: number): string {
  if (Math.round(ms) < MS_PER_SECOND) return `${Math.round(ms)} ms`;
  const tenthsOfSeconds = Math.round(ms / (MS_PER_SECOND / 10));
  if (tenthsOfSeconds < SECONDS_PER_MINUTE * 10) return `${(tenthsOfSeconds / 10).toFixed(1)} s`;
  const wholeSeconds = Math.round(ms / MS_PER_SECOND);
  const minutes = Math.floor(wholeSeconds / SECONDS_PER_MINUTE);
  const rest = String(wholeSeconds % SECONDS_PER_MINUTE).padStart(2, '0');
  return `${minutes} min ${rest} s`;
}

/** A model's confidence, 0 to 1, with two decimals. */
export function formatConfidence(confidence: number): string {
  return confidence.toFixed(2);
}

/** The `YYYY-MM-DD` date of an ISO timestamp, or null when it is not one. */
export function formatDate(timestamp: string): string | null {
  const time = Date.parse(timestamp);
  if (Number.isNaN(time)) return null;
  // The date as written, in the writer's zone, rather than shifted to UTC.
  return /^\d{4}-\d{2}-\d{2}/.exec(timestamp)?.[0] ?? new Date(time).toISOString().slice(0, 10);
}
