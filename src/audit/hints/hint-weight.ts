import type { Severity } from '../types.js';

/**
 * How much one hint of each severity adds to a chunk's risk score. Doubling per step lets one
 * critical hint outrank a file of three high ones, and info hints never reorder anything.
 */
export const HINT_WEIGHTS: Readonly<Record<Severity, number>> = {
  critical: 8,
  high: 4,
  medium: 2,
  low: 1,
  info: 0,
};

/** The risk weight of a hint of this severity. */
export function hintWeight(severity: Severity): number {
  return HINT_WEIGHTS[severity];
}
