import type { AuditReport } from '../../types.js';
import { formatConfidence } from '../format-quantities.js';
import { formatLocation } from '../format-location.js';
import type { ReportRow } from '../list-report-rows.js';
import { escapeMarkdownLine, escapeMarkdownText, formatTable } from './escape-markdown.js';

const SUMMARY_HEADER = ['Severity', 'Title', 'Location', 'Confidence'] as const;

/** `## Findings summary`: the model's summary, if any, then one table row per result. */
export function renderFindingsSummary(report: AuditReport, rows: readonly ReportRow[]): string {
  const parts = ['## Findings summary'];
  if (report.summary !== null && report.summary.trim() !== '') {
    parts.push(escapeMarkdownText(report.summary.trim(), { keepsCodeSpans: true }));
  }
  if (rows.length === 0) {
    parts.push(
      report.mode === 'offline'
        ? 'Nothing found: no committed secrets, secret-bearing files, security hints or prompt-injection markers.'
        : 'Nothing found: no verified findings, committed secrets, secret-bearing files or prompt-injection markers.',
    );
    return parts.join('\n\n');
  }
  parts.push(formatTable(SUMMARY_HEADER, rows.map(formatSummaryCells)));
  return parts.join('\n\n');
}

function formatSummaryCells(row: ReportRow): string[] {
  return [
    row.severity,
    escapeMarkdownLine(row.title),
    escapeMarkdownLine(formatLocation(row.path, row.line, row.endLine)),
    // A configuration change is a fact read from git, not a pattern match.
    row.kind === 'config-change'
      ? 'certain'
      : row.confidence === null
        ? 'hint'
        : formatConfidence(row.confidence),
  ];
}
