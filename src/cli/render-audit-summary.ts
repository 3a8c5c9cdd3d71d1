import type { AuditSummary, SeverityCounts } from '../audit/report/summarize-audit.js';
import type { Severity } from '../audit/types.js';
import { neutralizeControl } from '../shared/terminal/neutralize-control.js';
import type { Colors } from './terminal.js';

const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
/** Width of the severity column: the longest name. */
const SEVERITY_WIDTH = 8;
/** A title is cut here on the terminal; the report has it whole. */
const TITLE_MAX_CHARS = 100;

/**
 * The closing lines of `oy audit` on stderr, as semgrep and gitleaks end theirs: what was found by
 * severity, the top results by place, what was not reviewed and why, the model's calls and cost,
 * and where the report is. Every path and title is untrusted text, shown inert.
 */
export function renderAuditSummary(
  summary: AuditSummary,
  reportPath: string | null,
  colors: Colors,
): string {
  const lines = [
    [
      describeCounts('finding', 'findings', summary.findings, summary.model !== null),
      describeCounts('secret', 'secrets', summary.secrets, true),
      describeCounts('hint', 'hints', summary.hints, true),
    ]
      .filter((part) => part !== null)
      .join(' · '),
  ];
  const paint = (severity: Severity, text: string) => {
    if (severity === 'critical' || severity === 'high') return colors.red(text);
    if (severity === 'medium') return colors.yellow(text);
    return colors.dim(text);
  };
  for (const result of summary.top) {
    const title = shorten(neutralizeControl(result.title, { lineBreaks: 'show' }));
    const location = neutralizeControl(result.location, { lineBreaks: 'show' });
    lines.push(
      `  ${paint(result.severity, result.severity.padEnd(SEVERITY_WIDTH))} ${location}  ${title}`,
    );
  }
  lines.push(describeNotReviewed(summary));
  lines.push(describeModel(summary));
  if (reportPath !== null)
    lines.push(`report: ${neutralizeControl(reportPath, { lineBreaks: 'show' })}`);
  return `${lines.join('\n')}\n`;
}

/** `3 secrets (2 high, 1 medium)`, `no findings`; null when the run could not have any (offline findings). */
function describeCounts(
  one: string,
  many: string,
  counts: SeverityCounts,
  isApplicable: boolean,
): string | null {
  if (!isApplicable) return null;
  if (counts.total === 0) return `no ${many}`;
  const parts = SEVERITIES.flatMap((severity) =>
    counts[severity] ? [`${counts[severity]} ${severity}`] : [],
  );
  return `${counts.total} ${counts.total === 1 ? one : many} (${parts.join(', ')})`;
}

function describeNotReviewed(summary: AuditSummary): string {
  const { skipped, failed } = summary.notReviewed;
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([reason, count]) => `${count} ${neutralizeControl(reason)}`)
      .join(', ');
  const skippedTotal = Object.values(skipped).reduce((sum, count) => sum + count, 0);
  const failedTotal = Object.values(failed).reduce((sum, count) => sum + count, 0);
  const parts = [
    `${summary.filesReviewed} ${summary.filesReviewed === 1 ? 'file' : 'files'} reviewed`,
  ];
  parts.push(skippedTotal === 0 ? 'none skipped' : `${skippedTotal} skipped (${list(skipped)})`);
  if (failedTotal > 0) parts.push(`${failedTotal} failed (${list(failed)})`);
  return parts.join('; ');
}

function describeModel(summary: AuditSummary): string {
  if (summary.model === null) return 'model: none (offline: deterministic checks only)';
  const calls = `${summary.modelCalls} ${summary.modelCalls === 1 ? 'call' : 'calls'}`;
  const cost = summary.costUsd === null ? 'cost unknown' : `$${summary.costUsd.toFixed(4)}`;
  // The warning line above gives the whole reason; here, that the summary is missing.
  const missing =
    summary.summaryMissing === null ? '' : `, no summary (${summary.summaryMissing.reason})`;
  return `model: ${neutralizeControl(summary.model)}, ${calls}, ${cost}${missing}`;
}

function shorten(text: string): string {
  return text.length <= TITLE_MAX_CHARS ? text : `${text.slice(0, TITLE_MAX_CHARS - 1)}…`;
}
