import type { Severity } from '../../types.js';

/**
 * `properties.security-severity` per severity, a CVSS-like score that GitHub code scanning buckets
 * as critical (9.0 and up), high (7.0-8.9), medium (4.0-6.9) and low (0.1-3.9); each value sits
 * inside its bucket, and info scores 0.0, below every bucket.
 */
export const SECURITY_SEVERITY_SCORES: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
};

export type SarifLevel = 'error' | 'warning' | 'note';

const SARIF_LEVELS: Record<Severity, SarifLevel> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

/** The SARIF `level` of a severity: critical and high fail a check, medium warns, the rest note. */
export function toSarifLevel(severity: Severity): SarifLevel {
  return SARIF_LEVELS[severity];
}

/** A deterministic hint may be false, so it never fails a check: at most `warning`. */
export function toRowLevel(row: { kind: string; severity: Severity }): SarifLevel {
  const level = toSarifLevel(row.severity);
  return row.kind === 'hint' && level === 'error' ? 'warning' : level;
}
