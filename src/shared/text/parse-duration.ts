/** Milliseconds per unit a duration may be given in. */
const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** One or more `<whole number><unit>` parts, largest first or not: `90s`, `30m`, `1h30m`, `24h`, `2d`. */
const DURATION = /^(?:\d{1,9}[smhd])+$/;

/** A duration such as `30m`, `1h30m` or `24h` in milliseconds, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!DURATION.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)([smhd])/g))
    total += Number(amount) * UNIT_MS[unit!]!;
  return Number.isSafeInteger(total) ? total : undefined;
}

/** `86400000` -> `24h`, `5400000` -> `1h30m`: how help and messages show a duration. */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let left = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const amount = Math.floor(left / size);
    if (amount > 0) parts.push(`${amount}${unit}`);
    left -= amount * size;
  }
  return parts.length === 0 ? '0s' : parts.join('');
}
