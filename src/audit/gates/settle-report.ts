import { findingRuleId } from '../report/list-report-rows.js';
import type { FoundHistorySecret } from '../history/scan-history.js';
import type { ScannedFile } from '../scan/scanned-file.js';
import type { AuditReport, Finding, Severity } from '../types.js';
import type { Baselines } from './base-suppressions.js';
import { evaluateGates, type GatedResult, type GateResult } from './evaluate-gates.js';
import { gateHistorySecrets, type HistoryGate } from './gate-history-secrets.js';
import { fingerprintSecrets, suppressSecrets, type SecretResult } from './suppress-secrets.js';

/** A file's `oy:allow` lines: all the suppression needs of a scanned file. */
export type AllowedSecretLines = Pick<ScannedFile, 'path' | 'allowedSecretLines'>;

export interface SettleInput {
  files: readonly AllowedSecretLines[];
  historyFound: readonly FoundHistorySecret[];
  baselines: Baselines;
  /** `<line>:<path>` of the allow lines the audited change adds (`findAddedAllowLines`); empty without `--diff`. */
  addedAllowLines: ReadonlySet<string>;
  /** Whether the run had `--diff`: the history scanned is then the change's own. */
  isDiff: boolean;
  /** Findings the trusted baseline took out of the report. */
  suppressedFindings: readonly Finding[];
}

export interface SettledReport {
  secretResults: SecretResult[];
  historyGate: HistoryGate;
  /** The committed secrets (now and in the history) no baseline or marker accepted: they gate. */
  gatedSecrets: GatedResult[];
}

/**
 * Fills `report.suppressed` (`oy:allow` comments and the trusted baseline) and
 * `report.refusedSuppressions` (what the audited change adds to either), and says what still
 * gates; the same for `oy audit` and `oy report merge`.
 */
export function settleSuppressions(report: AuditReport, input: SettleInput): SettledReport {
  const { baselines } = input;
  const secretResults = fingerprintSecrets(report);
  const secretSuppression = suppressSecrets(secretResults, input.files, {
    baselines,
    addedAllowLines: input.addedAllowLines,
  });
  const historyGate = gateHistorySecrets(
    report,
    input.historyFound,
    baselines.trusted,
    !input.isDiff,
  );
  report.suppressed = [
    ...secretSuppression.suppressed,
    ...input.suppressedFindings.map((finding) => ({
      ruleId: findingRuleId(finding.category),
      path: finding.path,
      line: finding.line,
      by: 'baseline' as const,
    })),
    ...historyGate.suppressed,
  ];
  report.refusedSuppressions = [
    ...secretSuppression.refused,
    ...report.findings
      .filter((finding) => baselines.proposed.has(finding.fingerprint))
      .map((finding) => ({
        ruleId: findingRuleId(finding.category),
        path: finding.path,
        line: finding.line,
        by: 'baseline' as const,
        severity: finding.severity,
        title: finding.title,
      })),
  ];
  const suppressedPlaces = new Set(
    report.suppressed.map((item) => `${item.ruleId}\0${item.path}\0${item.line}`),
  );
  const gatedSecrets = [
    ...secretResults
      .map(({ row }) => row)
      .filter((row) => !suppressedPlaces.has(`${row.ruleId}\0${row.path}\0${row.line}`)),
    ...historyGate.gated,
  ];
  return { secretResults, historyGate, gatedSecrets };
}

export interface GateOptions {
  failOn: Severity | null;
  minCoverage: number | null;
  allowPartial: boolean;
}

/** The exit code and its reasons for a settled report. */
export function gateReport(
  report: AuditReport,
  gatedSecrets: readonly GatedResult[],
  options: GateOptions,
): GateResult {
  return evaluateGates({
    findings: report.findings,
    configChanges: report.configChanges,
    secrets: gatedSecrets,
    unreviewedChanges: report.unreviewedChanges,
    refusedSuppressions: report.refusedSuppressions,
    failOn: options.failOn,
    minCoverage: options.minCoverage,
    coverage: report.coverage,
    isPartial: report.coverage.isPartial,
    allowPartial: options.allowPartial,
  });
}
