import type { AuditReport, Finding, SecurityHint } from '../../types.js';
import { formatConfidence } from '../format-quantities.js';
import { formatLocation } from '../format-location.js';
import { labelHintCategory } from '../hint-category-labels.js';
import { listReportedHints } from '../list-report-rows.js';
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

/** `## Detailed findings`: verified findings in full, or, offline, the hints by category. */
export function renderDetailedFindings(report: AuditReport): string {
  const parts = ['## Detailed findings'];
  if (report.mode === 'offline') {
    parts.push(...renderHintDetails(listReportedHints(report), 'hints', '###'));
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
  const markers = listReportedHints(report).filter((hint) => hint.category === 'prompt-injection');
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
 * at most {@link DETAILED_HINTS_MAX} in full.
 */
function renderHintDetails(
  hints: readonly SecurityHint[],
  noun: 'hints' | 'markers',
  heading: '###' | null,
): string[] {
  if (hints.length === 0) return [noun === 'hints' ? 'No security hints.' : 'None.'];
  const sorted = [...hints].sort(compareHints);
  const shown = sorted.slice(0, DETAILED_HINTS_MAX);
  const groups = new Map<string, SecurityHint[]>();
  for (const hint of shown) groups.set(hint.category, [...(groups.get(hint.category) ?? []), hint]);
  const parts: string[] = [];
  if (noun === 'hints') {
    parts.push(
      'Deterministic pattern matches: places worth a reviewer\u2019s attention, each possibly a false positive.',
    );
  }
  for (const [category, group] of groups) {
    if (heading !== null)
      parts.push(`${heading} ${escapeMarkdownLine(labelHintCategory(category))}`);
    for (const hint of group) parts.push(renderHint(hint), formatCodeBlock(hint.excerpt));
  }
  const hidden = sorted.length - shown.length;
  if (hidden > 0)
    parts.push(`${countMore(hidden, noun === 'hints' ? 'hint' : 'marker')} in the summary table.`);
  return parts;
}

function renderHint(hint: SecurityHint): string {
  const location = formatCodeSpan(formatLocation(hint.path, hint.line));
  return `**${hint.severity}** · ${location} · ${formatCodeSpan(hint.ruleId)}: ${escapeMarkdownLine(hint.message)}`;
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

function compareHints(a: SecurityHint, b: SecurityHint): number {
  return (
    compareSeverity(a.severity, b.severity) ||
    compareText(a.path, b.path) ||
    a.line - b.line ||
    compareText(a.ruleId, b.ruleId) ||
    compareText(a.excerpt, b.excerpt)
  );
}
