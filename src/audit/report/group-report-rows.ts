import type { FileKind } from '../scope/classify-file.js';
import type { Severity } from '../types.js';
import type { ReportRow } from './list-report-rows.js';
import { compareSeverity, compareText } from './order-by-severity.js';
import { compareKinds } from './rank-by-context.js';

/** The rows of one rule and message, at one severity, in one kind of file: one line of the summary. */
export interface RowGroup {
  ruleId: string;
  title: string;
  severity: Severity;
  fileKind: FileKind;
  /** In path and line order. */
  rows: ReportRow[];
}

/**
 * One group per rule, severity and kind of file, so a pattern that matches 71 times is one line
 * with its count: application code first, then the most severe, then the most frequent.
 */
export function groupReportRows(rows: readonly ReportRow[]): RowGroup[] {
  const groups = new Map<string, RowGroup>();
  for (const row of rows) {
    // The title joins the key: a rule whose message names its subject (a config file) stays apart.
    const key = `${row.fileKind}\0${row.severity}\0${row.ruleId}\0${row.title}`;
    const group = groups.get(key);
    if (group) group.rows.push(row);
    else
      groups.set(key, {
        ruleId: row.ruleId,
        title: row.title,
        severity: row.severity,
        fileKind: row.fileKind,
        rows: [row],
      });
  }
  for (const group of groups.values()) group.rows.sort(compareByPlace);
  return [...groups.values()].sort(
    (a, b) =>
      compareKinds(a.fileKind, b.fileKind) ||
      compareSeverity(a.severity, b.severity) ||
      b.rows.length - a.rows.length ||
      compareText(a.ruleId, b.ruleId) ||
      compareText(a.title, b.title),
  );
}

function compareByPlace(a: ReportRow, b: ReportRow): number {
  return compareText(a.path, b.path) || (a.line ?? 0) - (b.line ?? 0);
}
