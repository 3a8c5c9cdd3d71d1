import type { AuditReport, Finding } from '../../types.js';
import { formatConfidence } from '../format-quantities.js';
import { formatLocation } from '../format-location.js';
import { compareSeverity, compareText } from '../order-by-severity.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

const UNVERIFIED_HEADER = [
  'Severity',
  'Title',
  'Location',
  'Confidence',
  'Why not verified',
] as const;

/** `## Unverified`: what the model reported that the source did not bear out; never a CI gate. */
export function renderUnverified(report: AuditReport): string {
  const heading = '## Unverified';
  if (report.mode === 'offline') {
    return `${heading}\n\nThis section applies to model runs: it lists findings whose cited evidence was not found in the source. This run used no model.`;
  }
  if (report.unverified.length === 0) return `${heading}\n\nNone.`;
  const rows = [...report.unverified]
    .sort(compareUnverified)
    .map((finding) => [
      finding.severity,
      escapeMarkdownLine(finding.title),
      escapeMarkdownLine(formatLocation(finding.path, finding.line, finding.endLine)),
      formatConfidence(finding.confidence),
      escapeMarkdownLine(finding.unverifiedReason ?? 'not given'),
    ]);
  return [
    heading,
    'The model reported these, but the cited path, lines or evidence did not match the source. They may be wrong, and they never count for `--fail-on`.',
    formatTable(UNVERIFIED_HEADER, rows),
  ].join('\n\n');
}

function compareUnverified(a: Finding, b: Finding): number {
  return (
    compareSeverity(a.severity, b.severity) ||
    compareText(a.path, b.path) ||
    a.line - b.line ||
    compareText(a.title, b.title)
  );
}
