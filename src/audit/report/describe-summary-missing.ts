import type { SummaryMissing } from '../types.js';

/**
 * The one sentence every output gives for a missing summary (report, SARIF, stderr), as plain
 * untrusted text: each format escapes it its own way.
 */
export function describeSummaryMissing(missing: SummaryMissing): string {
  return `no summary (${missing.reason}): ${missing.detail}; the findings are listed in oy's order, most severe first`;
}
