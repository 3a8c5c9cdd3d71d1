import type { LoopStopReason } from '../../agent/index.js';
import { EXIT } from '../../shared/errors.js';

/**
 * `oy run`'s exit code: 0 only when the model finished. A cap (turns, cost, repeated call) also
 * exits 1, because the task is not known to be done, though the summary is printed as the answer.
 */
export function exitCodeFor(stopReason: LoopStopReason): number {
  switch (stopReason) {
    case 'completed':
      return EXIT.ok;
    case 'cancelled':
      return EXIT.interrupted;
    default:
      return EXIT.runtime;
  }
}
