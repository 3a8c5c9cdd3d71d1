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

/** One of a fixed set of words. */
export function parseChoice<T extends string>(
  flag: string,
  value: unknown,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!(choices as readonly string[]).includes(text)) {
    throw new UsageError(`${flag} must be one of ${choices.join(', ')}, got \`${text}\``);
  }
  return text as T;
}

/** A repeatable flag: cac gives a string once and an array when repeated. */
export function parseList(flag: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const items = (Array.isArray(value) ? value : [value]).map(String);
  if (items.some((item) => item.trim() === '' || item === 'true')) {
    throw new UsageError(`${flag} needs a value, such as ${flag} 'src/**'`);
  }
  return items;
}

/** A string flag that must have a value (cac gives `true` for a bare `--out`). */
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
