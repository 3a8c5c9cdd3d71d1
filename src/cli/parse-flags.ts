import { UsageError } from '../shared/errors.js';

/** A whole number flag within bounds, or a usage error that names the flag and what was expected. */
export function parseWholeNumber(
  flag: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const number = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(number) || number < min || number > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got \`${text}\``);
  }
  return number;
}

/** A string flag that must have a value (kept for run's own checks; the flag table already refuses a bare `--out`). */
export function parseText(flag: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`${flag} needs a value`);
  return value;
}

/** `--max-cost <usd>`: a positive amount of dollars. */
export function parseMaxCost(value: unknown): number | null {
  if (value === undefined) return null;
  const text = String(value);
  const amount = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(amount > 0)) {
    throw new UsageError(
      `--max-cost must be a positive amount of US dollars, such as 2.50, got \`${text}\``,
    );
  }
  return amount;
}
