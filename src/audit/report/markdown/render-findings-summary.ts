import type { AuditReport } from '../../types.js';
import { formatConfidence } from '../format-quantities.js';
import { describeSummaryMissing } from '../describe-summary-missing.js';
import { formatLocation } from '../format-location.js';
import type { ReportRow } from '../list-report-rows.js';
import { escapeMarkdownLine, escapeMarkdownText, formatTable } from './escape-markdown.js';
import { formatRowGroups } from './format-row-groups.js';

const SUMMARY_HEADER = ['Severity', 'Title', 'Location', 'Confidence'] as const;

const GROUPS_INTRO =
  'Deterministic results, one line per rule: application code first, then tests, fixtures, examples, documentation and translations. Outside application code a result ranks one step lower (prompt-injection markers excepted). Every place is in the JSON and SARIF reports.';

/** `## Findings summary`: the model's summary, its verified findings, then the deterministic results grouped by rule. */
export function renderFindingsSummary(report: AuditReport, rows: readonly ReportRow[]): string {
  const parts = ['## Findings summary'];
  if (report.summary !== null && report.summary.trim() !== '') {
    parts.push(escapeMarkdownText(report.summary.trim(), { keepsCodeSpans: true }));
  }
  if (report.summaryMissing) {
    parts.push(
      `**Summary missing**: ${escapeMarkdownLine(describeSummaryMissing(report.summaryMissing))}.`,
    );
  }
  if (rows.length === 0) {
    parts.push(
      report.mode === 'offline'
        ? 'Nothing found: no committed secrets, secret-bearing files, security hints or prompt-injection markers.'
        : 'Nothing found: no verified findings, committed secrets, secret-bearing files or prompt-injection markers.',
    );
    return parts.join('\n\n');
  }
  const findings = rows.filter((row) => row.kind === 'finding');
  const deterministic = rows.filter((row) => row.kind !== 'finding');
  if (report.mode === 'model') {
    parts.push(
      findings.length > 0
        ? formatTable(SUMMARY_HEADER, findings.map(formatFindingCells))
        : 'No verified findings.',
    );
  }
  if (deterministic.length > 0) {
    if (report.mode === 'model') parts.push('### Deterministic results');
    parts.push(GROUPS_INTRO, formatRowGroups(deterministic));
  }
  return parts.join('\n\n');
}

function formatFindingCells(row: ReportRow): string[] {
  return [
    row.severity,
    escapeMarkdownLine(row.title),
    escapeMarkdownLine(formatLocation(row.path, row.line, row.endLine)),
    row.confidence === null ? 'hint' : formatConfidence(row.confidence),
  ];
}
