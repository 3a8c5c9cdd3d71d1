import type { Coverage } from '../types.js';
import { UNREVIEWED_SKIP_REASONS } from './skip-reasons.js';

/** The counts the coverage gate reads: `AuditReport.coverage` fits. */
export type GateCoverage = Pick<Coverage, 'filesReviewed' | 'filesFailed' | 'skippedByReason'>;

export interface CoverageRatio {
  reviewed: number;
  /** Failed, plus skipped for a reason in `UNREVIEWED_SKIP_REASONS`. */
  unreviewed: number;
  /** reviewed / (reviewed + unreviewed); 1 when there was nothing to review, so nothing was missed. */
  ratio: number;
}

/** The share of the files that should have been reviewed and were. */
export function coverageRatio(coverage: GateCoverage): CoverageRatio {
  const skipped = UNREVIEWED_SKIP_REASONS.reduce(
    (sum, reason) => sum + (coverage.skippedByReason[reason] ?? 0),
    0,
  );
  const reviewed = coverage.filesReviewed;
  const unreviewed = coverage.filesFailed + skipped;
  const total = reviewed + unreviewed;
  return { reviewed, unreviewed, ratio: total === 0 ? 1 : reviewed / total };
}
