import type { AuditReport, LedgerEntry } from '../../types.js';
import { formatCount, formatDuration, formatUsd } from '../format-quantities.js';
import { compareText } from '../order-by-severity.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

// Enough to act on by hand; a run with more failures points at the manifest for the rest.
const FAILED_FILES_LISTED_MAX = 50;

/** `## Coverage`: what was and was not reviewed, and what it cost. The full ledger is elsewhere. */
export function renderCoverage(report: AuditReport): string {
  const { coverage } = report;
  const parts = [
    '## Coverage',
    formatTable(
      ['Measure', 'Value'],
      [
        ['Files reviewed', formatCount(coverage.filesReviewed)],
        ['Files skipped', formatCount(coverage.filesSkipped)],
        ['Files failed', formatCount(coverage.filesFailed)],
        ['Chunks', formatCount(coverage.chunks)],
        ['Cache hits', formatCount(coverage.cacheHits)],
        ['Tokens in', formatCount(coverage.tokensIn)],
        ['Tokens out', formatCount(coverage.tokensOut)],
        ['Cost', coverage.costUsd === null ? 'n/a' : formatUsd(coverage.costUsd)],
        ['Model', report.model === null ? 'none (offline)' : escapeMarkdownLine(report.model)],
        ['Duration', formatDuration(coverage.durationMs)],
        [
          'Result',
          coverage.isPartial
            ? '**partial**: some files or chunks could not be reviewed'
            : 'complete',
        ],
      ],
    ),
  ];
  if (coverage.filesSkipped > 0 || Object.keys(coverage.skippedByReason).length > 0) {
    parts.push('### Skipped by reason', formatReasonTable(coverage.skippedByReason));
  }
  if (coverage.filesFailed > 0 || Object.keys(coverage.failedByReason).length > 0) {
    parts.push('### Failed by reason', formatReasonTable(coverage.failedByReason));
    parts.push(...renderFailedFiles(coverage.ledger));
  }
  parts.push(
    'The full ledger (one status per file) is in the `--manifest` file and in the JSON report.',
  );
  return parts.join('\n\n');
}

function formatReasonTable(byReason: Record<string, number>): string {
  const rows = Object.entries(byReason)
    .sort(
      ([reasonA, countA], [reasonB, countB]) => countB - countA || compareText(reasonA, reasonB),
    )
    .map(([reason, count]) => [escapeMarkdownLine(reason), formatCount(count)]);
  return formatTable(['Reason', 'Files'], rows);
}

function renderFailedFiles(ledger: readonly LedgerEntry[]): string[] {
  const failed = ledger
    .filter((entry) => entry.status === 'failed')
    .sort((a, b) => compareText(a.path, b.path));
  if (failed.length === 0) return [];
  const rows = failed
    .slice(0, FAILED_FILES_LISTED_MAX)
    .map((entry) => [
      escapeMarkdownLine(entry.path),
      escapeMarkdownLine(entry.reason ?? ''),
      escapeMarkdownLine(entry.detail ?? ''),
    ]);
  const parts = ['### Failed files', formatTable(['Path', 'Reason', 'Detail'], rows)];
  const hidden = failed.length - rows.length;
  if (hidden > 0) {
    parts.push(
      `${hidden} more failed ${hidden === 1 ? 'file is' : 'files are'} listed in the manifest.`,
    );
  }
  return parts;
}
