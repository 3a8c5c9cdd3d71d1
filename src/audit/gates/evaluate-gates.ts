import { EXIT } from '../../shared/errors.js';
import { formatLocation } from '../report/format-location.js';
import { compareSeverity } from '../report/order-by-severity.js';
import { compareFindings } from '../review/compare-findings.js';
import { describeConfigChange, CONFIG_CHANGE_SEVERITY } from '../report/describe-config-change.js';
import {
  describeRefusedSuppression,
  describeUnreviewedChange,
  UNREVIEWED_CHANGE_SEVERITY,
} from '../report/describe-change-results.js';
import type {
  ConfigChange,
  Finding,
  RefusedSuppression,
  Severity,
  UnreviewedChange,
} from '../types.js';
import { coverageRatio, type GateCoverage } from './coverage-ratio.js';

export interface GateInput {
  /** Verified findings after the baseline; unverified findings never gate, so they are not here. */
  findings: readonly Finding[];
  /** Edits to the audit's own configuration in a `--diff` run: they gate at their severity too. */
  configChanges: readonly ConfigChange[];
  /** Committed secrets and secret-bearing files not suppressed: they gate at their severity, offline too. */
  secrets: readonly GatedResult[];
  /** With `--diff`: changed files skipped for a reason the repository caused; medium, as config edits. */
  unreviewedChanges?: readonly UnreviewedChange[];
  /** With `--diff`: suppressions the change adds; each at the severity of what it would have hidden. */
  refusedSuppressions?: readonly RefusedSuppression[];
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
  const failOnReason = checkFailOn(listGated(input), input.failOn);
  const incompleteReasons = [
    input.isPartial && !input.allowPartial ? describePartial(input.coverage) : null,
    checkCoverage(input.coverage, input.minCoverage),
  ].filter((reason): reason is string => reason !== null);
  const reasons = failOnReason === null ? incompleteReasons : [failOnReason, ...incompleteReasons];
  const exitCode =
    failOnReason !== null ? EXIT.failOn : incompleteReasons.length > 0 ? EXIT.partial : EXIT.ok;
  return { exitCode, reasons };
}

/** What `--fail-on` weighs, one shape for every kind of result. */
export interface GatedResult {
  severity: Severity;
  title: string;
  path: string;
  line: number | null;
  endLine: number | null;
}

// Findings first in their report order; the stable sort by severity then keeps it within a severity.
function listGated(input: GateInput): GatedResult[] {
  const findings = [...input.findings].sort(compareFindings);
  const changes = input.configChanges.map((change) => ({
    severity: CONFIG_CHANGE_SEVERITY,
    title: describeConfigChange(change),
    path: change.path,
    line: null,
    endLine: null,
  }));
  const unreviewed = (input.unreviewedChanges ?? []).map((change) => ({
    severity: UNREVIEWED_CHANGE_SEVERITY,
    title: describeUnreviewedChange(change),
    path: change.path,
    line: null,
    endLine: null,
  }));
  const refused = (input.refusedSuppressions ?? []).map((attempt) => ({
    severity: attempt.severity,
    title: describeRefusedSuppression(attempt),
    path: attempt.path,
    line: attempt.line,
    endLine: null,
  }));
  return [...findings, ...input.secrets, ...changes, ...refused, ...unreviewed].sort((a, b) =>
    compareSeverity(a.severity, b.severity),
  );
}

function checkFailOn(results: readonly GatedResult[], failOn: Severity | null): string | null {
  if (failOn === null) return null;
  const failing = results.filter((result) => compareSeverity(result.severity, failOn) <= 0);
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
  const total = reviewed + unreviewed;
  // A run that reviewed nothing proves nothing: it never meets a coverage floor.
  if (total === 0) return `\`--min-coverage ${minCoverage}\`: no file was reviewed`;
  if (ratio >= minCoverage) return null;
  return `\`--min-coverage ${minCoverage}\`: ${reviewed} of ${total} reviewable files reviewed (${formatRatio(ratio)}); ${unreviewed} not reviewed (failed, unreadable, or left out by what the repository holds, --riskiest or --no-submodules; the report's Coverage lists them by reason)`;
}

// Floors to 3 decimals, so a coverage just under the floor never prints as equal to it.
function formatRatio(ratio: number): string {
  return String(Math.floor(ratio * 1000) / 1000);
}
