import type { AuditReport } from '../types.js';
import { listHintRows, type ReportRow } from './list-report-rows.js';

/** Lines either side of a finding within which a hint counts as the same place. */
export const CONFIRM_LINE_SLACK = 3;

export interface UnconfirmedHints {
  /** In files the model reviewed, with no verified finding at their place. */
  notConfirmed: ReportRow[];
  /** In files the model was not sent (`--scope`, `--riskiest`, a failed chunk). */
  notSent: ReportRow[];
}

/**
 * The hints of a model run that no verified finding bears out, so the report can list them as such
 * instead of dropping them. Prompt-injection markers are left out: the report always shows them.
 */
export function listUnconfirmedHints(report: AuditReport): UnconfirmedHints {
  const reviewed = new Set(
    report.coverage.ledger
      .filter((entry) => entry.status === 'reviewed')
      .map((entry) => entry.path),
  );
  const result: UnconfirmedHints = { notConfirmed: [], notSent: [] };
  for (const row of listHintRows(report)) {
    if (row.category === 'prompt-injection') continue;
    if (!reviewed.has(row.path)) result.notSent.push(row);
    else if (!isConfirmed(row, report)) result.notConfirmed.push(row);
  }
  return result;
}

function isConfirmed(row: ReportRow, report: AuditReport): boolean {
  const line = row.line ?? 1;
  return report.findings.some(
    (finding) =>
      finding.path === row.path &&
      line >= finding.line - CONFIRM_LINE_SLACK &&
      line <= Math.max(finding.line, finding.endLine) + CONFIRM_LINE_SLACK,
  );
}
