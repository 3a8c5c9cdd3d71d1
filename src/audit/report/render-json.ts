import type { AuditReport } from '../types.js';

/** The report as JSON: the `AuditReport` itself, described by `audit-report.schema.json`. */
export function renderJson(report: AuditReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
