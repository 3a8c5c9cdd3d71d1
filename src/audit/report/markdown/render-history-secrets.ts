import type { AuditReport, HistoryReport } from '../../types.js';
import { SHORT_COMMIT_CHARS } from '../format-location.js';
import { formatCount } from '../format-quantities.js';
import { compareText } from '../order-by-severity.js';
import { escapeMarkdownLine, formatCodeSpan, formatTable } from './escape-markdown.js';

const HEADER = ['Rule', 'Commit', 'Path', 'Line'] as const;
const BYTES_PER_KB = 1000;
const BYTES_PER_MB = 1_000_000;

/**
 * `## Secrets in history`: what the history scan read and every secret a scanned commit added,
 * by rule, commit and place, never a value; null when no commit was scanned.
 */
export function renderHistorySecrets(report: AuditReport): string | null {
  const history = report.history;
  if (history === undefined) return null;
  const parts = ['## Secrets in history', describeScan(history)];
  if (history.isShallow) {
    parts.push(
      'This clone is shallow: commits older than its boundary are not in it and were not scanned (fetch the full history, such as `git fetch --unshallow` or `fetch-depth: 0`, to scan them).',
    );
  }
  if (history.secrets.length === 0) {
    parts.push('No scanned commit added a secret.');
    return parts.join('\n\n');
  }
  const rows = history.secrets.map((secret) => [
    escapeMarkdownLine(secret.rule),
    formatCodeSpan(secret.commit.slice(0, SHORT_COMMIT_CHARS)),
    escapeMarkdownLine(secret.path),
    secret.line === null ? '—' : String(secret.line),
  ]);
  parts.push(
    'Values are never shown. A secret in the history can be read by anyone who clones the repository, even after a later commit removed it: rotate it. Each row names the commit that added it (oldest first) and its line in that commit.',
    formatTable(HEADER, rows),
  );
  return parts.join('\n\n');
}

function describeScan(history: HistoryReport): string {
  const commits = history.commits === 1 ? '1 commit' : `${formatCount(history.commits)} commits`;
  const which =
    history.scope === 'all'
      ? `every commit reachable from HEAD (${commits})`
      : `the ${commits} since ${formatCodeSpan(history.ref ?? '')} (\`<ref>..HEAD\`)`;
  const skipped = Object.entries(history.skippedByReason)
    .sort(([a], [b]) => compareText(a, b))
    .map(([reason, count]) => `${escapeMarkdownLine(reason)} ${formatCount(count)}`);
  const skippedText =
    skipped.length === 0 ? '' : ` Changed files not scanned: ${skipped.join(', ')}.`;
  return `Scanned the lines added by ${which}: ${formatCount(history.blobs)} file versions, ${formatBytes(history.bytes)}, each version once; merges by what they add beyond every parent.${skippedText}`;
}

/** `830 KB`, `12.4 MB`: enough to tell a small history from a large one. */
function formatBytes(bytes: number): string {
  return bytes < BYTES_PER_MB
    ? `${formatCount(Math.ceil(bytes / BYTES_PER_KB))} KB`
    : `${(bytes / BYTES_PER_MB).toFixed(1)} MB`;
}
