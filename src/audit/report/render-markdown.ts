import type { AuditReport } from '../types.js';
import { listReportRows } from './list-report-rows.js';
import { renderCoverage } from './markdown/render-coverage.js';
import { renderDetailedFindings } from './markdown/render-detailed-findings.js';
import { renderFindingsSummary } from './markdown/render-findings-summary.js';
import { renderHeader } from './markdown/render-header.js';
import { renderHistorySecrets } from './markdown/render-history-secrets.js';
import { renderMethod } from './markdown/render-method.js';
import { renderSecrets } from './markdown/render-secrets.js';
import { renderSuppressed } from './markdown/render-suppressed.js';
import { renderUnconfirmedHints } from './markdown/render-unconfirmed-hints.js';
import { renderUnverified } from './markdown/render-unverified.js';

/**
 * The report as Markdown (`ISSUES.md`): header, findings summary, detailed findings, unverified,
 * hints the model did not confirm (model runs), secrets, secrets in history, coverage, method. Every piece of report text is escaped, so no title, path or evidence
 * can add a section, a link or HTML of its own.
 */
export function renderMarkdown(report: AuditReport): string {
  const sections = [
    renderHeader(report),
    renderFindingsSummary(report, listReportRows(report)),
    renderDetailedFindings(report),
    renderUnverified(report),
    renderUnconfirmedHints(report),
    renderSecrets(report),
    renderHistorySecrets(report),
    renderSuppressed(report),
    renderCoverage(report),
    renderMethod(report),
  ];
  return `${sections.filter((section) => section !== null).join('\n\n')}\n`;
}
