import { isRepositorySkip } from '../../gates/skip-reasons.js';
import type { AuditReport, LedgerEntry } from '../../types.js';
import { describeSummaryMissing } from '../describe-summary-missing.js';
import { formatCount, formatDuration, formatUsd } from '../format-quantities.js';
import { compareText } from '../order-by-severity.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

// Enough to act on by hand; a run with more points at the manifest for the rest.
const FILES_LISTED_MAX = 50;
// Per reason, so a committed vendor/ of thousands of files cannot hide the one generated file.
const FILES_LISTED_PER_REASON = 20;

/** `## Coverage`: what was and was not reviewed, and what it cost. The full ledger is elsewhere. */
export function renderCoverage(report: AuditReport): string {
  const { coverage } = report;
  // Files outside --scope were read and checked: they get their own line, not the skipped count.
  const checksOnly = coverage.skippedByReason.scope ?? 0;
  const { scope: _scope, ...skippedByReason } = coverage.skippedByReason;
  const parts = [
    '## Coverage',
    formatTable(
      ['Measure', 'Value'],
      [
        [
          report.mode === 'model'
            ? 'Files reviewed by the model'
            : 'Files a model review would cover',
          formatCount(coverage.filesReviewed),
        ],
        [
          `Files with deterministic checks only (\`--scope ${coverage.scope}\`)`,
          formatCount(checksOnly),
        ],
        ['Files skipped', formatCount(coverage.filesSkipped - checksOnly)],
        ['Files failed', formatCount(coverage.filesFailed)],
        ['Chunks', formatChunks(coverage.chunks, coverage.chunksSkippedByBudget)],
        ['Cache hits', formatCount(coverage.cacheHits)],
        ['Tokens in', formatCount(coverage.tokensIn)],
        ['Tokens out', formatCount(coverage.tokensOut)],
        ['Cost', coverage.costUsd === null ? 'n/a' : formatUsd(coverage.costUsd)],
        ['Model', report.model === null ? 'none (offline)' : escapeMarkdownLine(report.model)],
        ['Duration', formatDuration(coverage.durationMs)],
        ['Result', describeResult(report)],
      ],
    ),
  ];
  if (Object.keys(skippedByReason).length > 0) {
    parts.push('### Skipped by reason', formatReasonTable(skippedByReason));
  }
  if (coverage.filesFailed > 0 || Object.keys(coverage.failedByReason).length > 0) {
    parts.push('### Failed by reason', formatReasonTable(coverage.failedByReason));
    parts.push(...renderFailedFiles(coverage.ledger));
  }
  parts.push(...renderLeftOutByRepository(coverage.ledger));
  parts.push(...renderOwnOutputs(coverage.ledger));
  parts.push(
    'The full ledger (one status per file) is in the `--manifest` file and in the JSON report.',
  );
  return parts.join('\n\n');
}

function describeResult(report: AuditReport): string {
  const { coverage } = report;
  // A run without its summary is not complete, though every finding is listed.
  const noSummary = report.summaryMissing
    ? `; ${escapeMarkdownLine(describeSummaryMissing(report.summaryMissing))}`
    : '';
  if (coverage.isPartial)
    return `**partial**: some files or chunks could not be reviewed${noSummary}`;
  // An empty selection is not a clean result: nothing was looked at.
  if (coverage.ledger.length === 0) return '**empty**: no file was found to audit';
  if (noSummary !== '') return `**reviewed without summary**: every file was reviewed${noSummary}`;
  return 'complete';
}

function formatChunks(reviewed: number, skippedByBudget: number): string {
  if (skippedByBudget === 0) return formatCount(reviewed);
  return `${formatCount(reviewed)} of ${formatCount(reviewed + skippedByBudget)} (the riskiest, \`--riskiest\`; ${formatCount(skippedByBudget)} \`skipped(budget)\`)`;
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
  const failed = ledger.filter((entry) => entry.status === 'failed');
  return renderFileList('### Failed files', failed, 'failed');
}

/**
 * What the repository's own content kept from the review (a folder or file name, a marker, an
 * encoding, a size, a link, its `.oyignore` or project file), by reason: always shown.
 */
function renderLeftOutByRepository(ledger: readonly LedgerEntry[]): string[] {
  const leftOut = ledger.filter(
    (entry) => entry.status === 'skipped' && isRepositorySkip(entry.reason),
  );
  if (leftOut.length === 0) return [];
  const reasons = [...new Set(leftOut.map((entry) => entry.reason ?? ''))].sort(compareText);
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const reason of reasons) {
    const entries = leftOut
      .filter((entry) => entry.reason === reason)
      .sort((a, b) => compareText(a.path, b.path));
    for (const entry of entries.slice(0, FILES_LISTED_PER_REASON)) {
      rows.push([
        escapeMarkdownLine(entry.path),
        escapeMarkdownLine(reason),
        escapeMarkdownLine(entry.detail ?? ''),
      ]);
    }
    const hidden = entries.length - FILES_LISTED_PER_REASON;
    if (hidden > 0) notes.push(`${formatCount(hidden)} more \`${escapeMarkdownLine(reason)}\``);
  }
  const parts = [
    '### Not reviewed because of what the repository holds',
    'These files were not reviewed because of something the audited repository itself wrote: a folder such as `vendor/` or `dist/`, a lockfile or `*.min.*` name, a generated marker, minified or binary content under a text name, an encoding, a size over `--max-file-bytes`, a hard link, an uninitialised submodule, or its own `.oyignore` or `.oy/config.json`. They count as not reviewed for `--min-coverage`, but their committed secrets are still found and gated; pass `--exclude` yourself to leave a file out by choice.',
    formatTable(['Path', 'Reason', 'Detail'], rows),
  ];
  if (notes.length > 0) parts.push(`${notes.join(', ')}: listed in the manifest.`);
  return parts;
}

/** Files left out as oy's own: named, so a reader can see nothing else hid behind the reason. */
function renderOwnOutputs(ledger: readonly LedgerEntry[]): string[] {
  const own = ledger.filter((entry) => entry.status === 'skipped' && entry.reason === 'oy-output');
  return renderFileList(
    "### oy's own outputs, not audited",
    own,
    'oy-output',
    "Reports, ledgers and baselines this user's oy wrote, known by their seal. A file that only looks like one is audited.",
  );
}

function renderFileList(
  title: string,
  entries: readonly LedgerEntry[],
  /** How the closing line names the files not shown: `failed`, `left-out`. */
  label: string,
  /** A line under the title saying why these files are listed. */
  explanation?: string,
): string[] {
  const sorted = [...entries].sort((a, b) => compareText(a.path, b.path));
  if (sorted.length === 0) return [];
  const rows = sorted
    .slice(0, FILES_LISTED_MAX)
    .map((entry) => [
      escapeMarkdownLine(entry.path),
      escapeMarkdownLine(entry.reason ?? ''),
      escapeMarkdownLine(entry.detail ?? ''),
    ]);
  const parts = [
    title,
    ...(explanation === undefined ? [] : [explanation]),
    formatTable(['Path', 'Reason', 'Detail'], rows),
  ];
  const hidden = sorted.length - rows.length;
  if (hidden > 0) {
    parts.push(
      `${hidden} more ${label} ${hidden === 1 ? 'file is' : 'files are'} listed in the manifest.`,
    );
  }
  return parts;
}
