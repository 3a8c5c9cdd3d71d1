import type { AuditReport } from '../../types.js';
import { formatRowLocation } from '../format-location.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

const HEADER = ['Rule', 'Path', 'Line', 'Suppressed by'] as const;

/** `## Suppressed`: what `--baseline` or an `oy:allow` comment kept out of the results and gates; empty when nothing was. */
export function renderSuppressed(report: AuditReport): string | null {
  if (report.suppressed.length === 0) return null;
  const rows = report.suppressed.map((item) => [
    escapeMarkdownLine(item.ruleId),
    escapeMarkdownLine(
      formatRowLocation({
        path: item.path,
        line: null,
        endLine: null,
        ...(item.commit === undefined ? {} : { commit: item.commit }),
      }),
    ),
    item.line === null ? '—' : String(item.line),
    item.by === 'baseline' ? '`--baseline`' : '`oy:allow` comment',
  ]);
  const count = report.suppressed.length === 1 ? '1 result' : `${report.suppressed.length} results`;
  return [
    '## Suppressed',
    `${count} accepted by the baseline or an \`oy:allow\` comment on the line: not listed above and never gating. Values are never shown.`,
    formatTable(HEADER, rows),
  ].join('\n\n');
}
