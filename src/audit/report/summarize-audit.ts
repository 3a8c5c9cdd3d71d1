import type { AuditReport, Severity, SummaryMissing } from '../types.js';
import { formatLocation } from './format-location.js';
import { listHintRows, listReportRows, type ReportRow } from './list-report-rows.js';
import { compareText } from './order-by-severity.js';

/** Results shown by place at the end of a run: enough to act on, few enough to read. */
export const TOP_RESULTS = 5;

export type SeverityCounts = Partial<Record<Severity, number>> & { total: number };

export interface TopResult {
  severity: Severity;
  kind: ReportRow['kind'];
  /** `path:line`, or the path for a whole-file result. */
  location: string;
  title: string;
}

/** What a finished audit found, in numbers, for the terminal and `--json`. */
export interface AuditSummary {
  /** Verified model findings. */
  findings: SeverityCounts;
  /** Committed secrets and secret-bearing files that are not suppressed. */
  secrets: SeverityCounts;
  hints: SeverityCounts;
  /** The first rows of the findings summary, in its order. */
  top: TopResult[];
  /** Files not reviewed, by reason (`skipped(<reason>)` and `failed(<reason>)`). */
  notReviewed: { skipped: Record<string, number>; failed: Record<string, number> };
  filesReviewed: number;
  model: string | null;
  /** Calls this run made to the model (cached chunks cost none). */
  modelCalls: number;
  costUsd: number | null;
  /** Why the report has no summary, when a model run's summary is missing. */
  summaryMissing: SummaryMissing | null;
}

/** The numbers behind the closing lines of `oy audit`: counts by severity, the top results, skips and cost. */
export function summarizeAudit(report: AuditReport, modelCalls: number): AuditSummary {
  const rows = listReportRows(report);
  const { coverage } = report;
  return {
    findings: countBySeverity(report.findings.map((finding) => finding.severity)),
    secrets: countBySeverity(
      rows
        .filter((row) => row.kind === 'secret' || row.kind === 'secret-file')
        .map((row) => row.severity),
    ),
    hints: countBySeverity(listHintRows(report).map((row) => row.severity)),
    top: rows.slice(0, TOP_RESULTS).map((row) => ({
      severity: row.severity,
      kind: row.kind,
      location: formatLocation(row.path, row.line, row.endLine),
      title: row.title,
    })),
    notReviewed: {
      skipped: sortKeys(coverage.skippedByReason),
      failed: sortKeys(coverage.failedByReason),
    },
    filesReviewed: coverage.filesReviewed,
    model: report.model,
    modelCalls,
    costUsd: coverage.costUsd,
    summaryMissing: report.summaryMissing ?? null,
  };
}

function countBySeverity(severities: readonly Severity[]): SeverityCounts {
  const counts: SeverityCounts = { total: severities.length };
  for (const severity of severities) counts[severity] = (counts[severity] ?? 0) + 1;
  return counts;
}

function sortKeys(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => compareText(a, b)));
}
