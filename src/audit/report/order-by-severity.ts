import type { Severity } from '../types.js';

const SEVERITY_RANK: Record<Severity, number> = {
  critical: 0,
  high: 1,
  medium: 2,
  low: 3,
  info: 4,
};

/** Negative when `a` is more severe than `b`. */
export function compareSeverity(a: Severity, b: Severity): number {
  return SEVERITY_RANK[a] - SEVERITY_RANK[b];
}

/** The more severe of two severities. */
export function maxSeverity(a: Severity, b: Severity): Severity {
  return compareSeverity(a, b) <= 0 ? a : b;
}

/** Code-point order, so the result never depends on the machine's locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
