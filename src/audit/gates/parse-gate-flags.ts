import { UsageError } from '../../shared/errors.js';
import { SEVERITIES, type Severity } from '../types.js';

/** `--fail-on <severity>`: null when not given; any case accepted. */
export function parseFailOn(value: unknown): Severity | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const severity = SEVERITIES.find((candidate) => candidate === text);
  if (severity === undefined) {
    throw new UsageError(
      `\`--fail-on\` must be one of ${SEVERITIES.join(', ')}, got \`${show(value)}\``,
    );
  }
  return severity;
}

/** `--min-coverage <0..1>`: null when not given. */
export function parseMinCoverage(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  // Number('') is 0 and Number('0x1') is 1: only plain decimals are accepted.
  const ratio = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!(ratio >= 0 && ratio <= 1)) {
    throw new UsageError(
      `\`--min-coverage\` must be a number from 0 to 1, got \`${show(value)}\``,
      {
        hint: 'for example `--min-coverage 0.9` to require 90% of the reviewable files',
      },
    );
  }
  return ratio;
}

// cac gives `true` for a flag without a value and an array for a repeated one.
function show(value: unknown): string {
  if (value === true) return '';
  return Array.isArray(value) ? value.map(String).join(' ') : String(value);
}
