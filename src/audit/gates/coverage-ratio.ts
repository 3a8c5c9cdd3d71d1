import type { Coverage, SkipReason } from '../types.js';

/**
 * Skips that mean "meant to be reviewed, but was not": too big, an error reading it, or left out
 * by the audited repository's own rules (`.oyignore`, the project file), which are not the user's
 * choice, and what `--riskiest` left out. The other skips (the user's excludes, generated, binary,
 * lockfile, secret-bearing, unchanged, outside `--scope`...) do not lower coverage.
 */
export const UNREVIEWED_SKIP_REASONS: readonly SkipReason[] = [
  'too-large',
  'line-too-long',
  'unreadable',
  'missing',
  'repository-ignore',
  'project-exclude',
  // `--riskiest` reviews a part on purpose, but the rest was not reviewed: coverage says so.
  'budget',
];

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
