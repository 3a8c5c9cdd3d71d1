import type { AuditReport, LedgerEntry, SkipReason } from '../../types.js';
import { describeSummaryMissing } from '../describe-summary-missing.js';
import { formatCount, formatDuration, formatUsd } from '../format-quantities.js';
import { compareText } from '../order-by-severity.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

// Enough to act on by hand; a run with more points at the manifest for the rest.
const FILES_LISTED_MAX = 50;
/** Skips decided by the audited repository's own files, not by the user: always shown. */
const REPOSITORY_SKIP_REASONS: ReadonlySet<SkipReason | string> = new Set<SkipReason>([
  'repository-ignore',
  'project-exclude',
]);

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

/** The repository's `.oyignore` and project file are its own content: what they hide is shown. */
function renderLeftOutByRepository(ledger: readonly LedgerEntry[]): string[] {
  const leftOut = ledger.filter(
    (entry) => entry.status === 'skipped' && REPOSITORY_SKIP_REASONS.has(entry.reason ?? ''),
  );
  return renderFileList(
    '### Left out by the repository',
    leftOut,
    'left-out',
    "The audited repository's own `.oyignore` or `.oy/config.json` left these files out. They were not reviewed and count as not reviewed for `--min-coverage`, but their committed secrets are still found and gated; pass `--exclude` yourself to leave a file out by choice.",
  );
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
