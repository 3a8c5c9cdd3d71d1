import { EXIT } from '../../shared/errors.js';
import { formatLocation } from '../report/format-location.js';
import { compareSeverity } from '../report/order-by-severity.js';
import { compareFindings } from '../review/compare-findings.js';
import type { Finding, Severity } from '../types.js';
import { coverageRatio, type GateCoverage } from './coverage-ratio.js';

export interface GateInput {
  /** Verified findings after the baseline; unverified findings never gate, so they are not here. */
  findings: readonly Finding[];
  failOn: Severity | null;
  minCoverage: number | null;
  coverage: GateCoverage;
  isPartial: boolean;
  allowPartial: boolean;
}

export interface GateResult {
  exitCode: 0 | 3 | 4;
  /** Every gate that failed, one line each: fail-on, then partial, then coverage. */
  reasons: string[];
}

/**
 * The CI verdict. `--fail-on`: a finding at or above the severity gives exit 3. A partial result
 * (unless `--allow-partial`) and coverage below `--min-coverage` give exit 4: both say the review
 * is incomplete, which is what 4 means in the exit-code table, while 3 means "findings found".
 * `--allow-partial` does not waive `--min-coverage`, so the two together tolerate a few failures.
 * When several fail, 3 wins: findings at or above the bar fail the check whatever the unreviewed
 * part holds, so the verdict is certain, whereas 4 says the verdict is unknown. Every reason is
 * listed either way.
 */
export function evaluateGates(input: GateInput): GateResult {
  const failOnReason = checkFailOn(input.findings, input.failOn);
  const incompleteReasons = [
    input.isPartial && !input.allowPartial ? describePartial(input.coverage) : null,
    checkCoverage(input.coverage, input.minCoverage),
  ].filter((reason): reason is string => reason !== null);
  const reasons = failOnReason === null ? incompleteReasons : [failOnReason, ...incompleteReasons];
  const exitCode =
    failOnReason !== null ? EXIT.failOn : incompleteReasons.length > 0 ? EXIT.partial : EXIT.ok;
  return { exitCode, reasons };
}

function checkFailOn(findings: readonly Finding[], failOn: Severity | null): string | null {
  if (failOn === null) return null;
  const failing = findings
    .filter((finding) => compareSeverity(finding.severity, failOn) <= 0)
    .sort(compareFindings);
  const worst = failing[0];
  if (worst === undefined) return null;
  const count = failing.length === 1 ? '1 finding' : `${failing.length} findings`;
  const place = formatLocation(worst.path, worst.line, worst.endLine);
  return `\`--fail-on ${failOn}\`: ${count} at or above ${failOn}; worst: ${worst.severity} "${worst.title}" at ${place}`;
}

function describePartial(coverage: GateCoverage): string {
  const failed =
    coverage.filesFailed === 1
      ? '1 file was not reviewed'
      : `${coverage.filesFailed} files were not reviewed`;
  const what =
    coverage.filesFailed > 0 ? failed : 'the review stopped before every chunk was reviewed';
  return `partial result: ${what} (pass \`--allow-partial\` to accept a partial result)`;
}

function checkCoverage(coverage: GateCoverage, minCoverage: number | null): string | null {
  if (minCoverage === null) return null;
  const { reviewed, unreviewed, ratio } = coverageRatio(coverage);
  if (ratio >= minCoverage) return null;
  const total = reviewed + unreviewed;
  return `\`--min-coverage ${minCoverage}\`: ${reviewed} of ${total} reviewable files reviewed (${formatRatio(ratio)}); ${unreviewed} failed or skipped for size or a read error`;
}

// Floors to 3 decimals, so a coverage just under the floor never prints as equal to it.
function formatRatio(ratio: number): string {
  return String(Math.floor(ratio * 1000) / 1000);
}
