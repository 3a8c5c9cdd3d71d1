import type { AuditReport, Finding } from '../../types.js';
import { formatConfidence } from '../format-quantities.js';
import { formatLocation } from '../format-location.js';
import { labelHintCategory } from '../hint-category-labels.js';
import { listReportRows, type ReportRow } from '../list-report-rows.js';
import { compareSeverity, compareText } from '../order-by-severity.js';
import {
  escapeMarkdownLine,
  escapeMarkdownText,
  formatCodeBlock,
  formatCodeSpan,
} from './escape-markdown.js';

// The spec asks for the most severe 10 to 20 findings in full: always up to 10, and up to 20 while
// they are still medium or worse; the summary table lists the rest.
const DETAILED_FINDINGS_MIN = 10;
const DETAILED_FINDINGS_MAX = 20;
// Offline, the hints stand in for findings under the same cap.
const DETAILED_HINTS_MAX = 20;
// More places of one rule add little: the summary counts them all.
const DETAILED_PER_RULE_MAX = 3;

/** `## Detailed findings`: verified findings in full, or, offline, the hints by category. */
export function renderDetailedFindings(report: AuditReport): string {
  const parts = ['## Detailed findings'];
  if (report.mode === 'offline') {
    parts.push(...renderHintDetails(hintRows(report), 'hints', '###'));
    return parts.join('\n\n');
  }
  // Grouped by severity, keeping the reduce step's ranking (the report's order) within each.
  const findings = [...report.findings].sort((a, b) => compareSeverity(a.severity, b.severity));
  const shown = findings.filter(
    (finding, index) =>
      index < DETAILED_FINDINGS_MIN ||
      (index < DETAILED_FINDINGS_MAX && compareSeverity(finding.severity, 'medium') <= 0),
  );
  if (shown.length === 0) parts.push('No verified findings.');
  shown.forEach((finding, index) => parts.push(renderFinding(finding, index + 1)));
  const hidden = findings.length - shown.length;
  if (hidden > 0) parts.push(`${countMore(hidden, 'verified finding')} in the summary table.`);
  const markers = hintRows(report).filter((row) => row.category === 'prompt-injection');
  if (markers.length > 0) {
    parts.push(
      '### Prompt-injection markers',
      'Found by deterministic checks, whatever the model said: text that addresses an AI reviewer or hides characters.',
      ...renderHintDetails(markers, 'markers', null),
    );
  }
  return parts.join('\n\n');
}

function renderFinding(finding: Finding, number: number): string {
  const location = formatLocation(finding.path, finding.line, finding.endLine);
  return [
    `### ${number}. ${escapeMarkdownLine(finding.title)}`,
    [
      `- **Severity:** ${finding.severity}`,
      `- **Category:** ${escapeMarkdownLine(finding.category)}`,
      `- **Location:** ${formatCodeSpan(location)}`,
      `- **Confidence:** ${formatConfidence(finding.confidence)}`,
    ].join('\n'),
    '**Evidence:**',
    formatCodeBlock(finding.evidence),
    `**Impact:** ${formatProse(finding.impact)}`,
    `**Preconditions:** ${formatProse(finding.preconditions)}`,
    `**Fix:** ${formatProse(finding.fix)}`,
  ].join('\n\n');
}

/**
 * Hints grouped by category (most severe group first, under `heading`-level titles unless null),
 * at most {@link DETAILED_HINTS_MAX} in full: application code first and a few per rule, so the
 * section shows the most telling places rather than one pattern many times.
 */
function renderHintDetails(
  rows: readonly ReportRow[],
  noun: 'hints' | 'markers',
  heading: '###' | null,
): string[] {
  if (rows.length === 0) return [noun === 'hints' ? 'No security hints.' : 'None.'];
  const shown = selectTellingRows(rows);
  const groups = new Map<string, ReportRow[]>();
  for (const row of shown) groups.set(row.category, [...(groups.get(row.category) ?? []), row]);
  const parts: string[] = [];
  if (noun === 'hints') {
    parts.push(
      shown.every((row) => row.fileKind === 'source')
        ? 'Deterministic pattern matches in application code, the most severe first and a few per rule: places worth a reviewer\u2019s attention, each possibly a false positive.'
        : 'Deterministic pattern matches, the most severe first and a few per rule: places worth a reviewer\u2019s attention, each possibly a false positive.',
    );
  }
  for (const [category, group] of groups) {
    if (heading !== null)
      parts.push(`${heading} ${escapeMarkdownLine(labelHintCategory(category))}`);
    for (const row of group) parts.push(renderHint(row), formatCodeBlock(row.text));
  }
  const hidden = rows.length - shown.length;
  if (hidden > 0)
    parts.push(`${countMore(hidden, noun === 'hints' ? 'hint' : 'marker')} in the summary table.`);
  return parts;
}

/**
 * The rows worth showing in full: application code (and prompt-injection markers, wherever they
 * are) when there is any, else the rest; most severe first, at most {@link DETAILED_PER_RULE_MAX}
 * per rule and {@link DETAILED_HINTS_MAX} in all.
 */
function selectTellingRows(rows: readonly ReportRow[]): ReportRow[] {
  const telling = rows.filter(
    (row) => row.fileKind === 'source' || row.category === 'prompt-injection',
  );
  const pool = [...(telling.length > 0 ? telling : rows)].sort(compareRows);
  const perRule = new Map<string, number>();
  const shown: ReportRow[] = [];
  for (const row of pool) {
    const count = perRule.get(row.ruleId) ?? 0;
    if (count >= DETAILED_PER_RULE_MAX) continue;
    perRule.set(row.ruleId, count + 1);
    shown.push(row);
    if (shown.length === DETAILED_HINTS_MAX) break;
  }
  return shown;
}

function renderHint(row: ReportRow): string {
  const location = formatCodeSpan(formatLocation(row.path, row.line ?? 1));
  return `**${row.severity}** · ${location} · ${formatCodeSpan(row.ruleId)}: ${escapeMarkdownLine(row.title)}`;
}

/** `1 more hint is listed`, `3 more hints are listed`. */
function countMore(count: number, noun: string): string {
  return count === 1 ? `1 more ${noun} is listed` : `${count} more ${noun}s are listed`;
}

function formatProse(text: string): string {
  return text.trim() === ''
    ? '(not given)'
    : escapeMarkdownText(text.trim(), { keepsCodeSpans: true });
}

function compareRows(a: ReportRow, b: ReportRow): number {
  return (
    compareSeverity(a.severity, b.severity) ||
    compareText(a.path, b.path) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.ruleId, b.ruleId) ||
    compareText(a.text, b.text)
  );
}

/** The hint rows of the report, with their severity in context. */
function hintRows(report: AuditReport): ReportRow[] {
  return listReportRows(report).filter((row) => row.kind === 'hint');
}
