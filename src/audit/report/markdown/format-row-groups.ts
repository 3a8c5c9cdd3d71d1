import { FILE_KIND_LABELS } from '../../scope/classify-file.js';
import { formatRowLocation } from '../format-location.js';
import { groupReportRows } from '../group-report-rows.js';
import type { ReportRow } from '../list-report-rows.js';
import { escapeMarkdownLine, formatTable } from './escape-markdown.js';

const GROUP_HEADER = ['Severity', 'Title', 'Code', 'Count', 'Locations'] as const;
/** Places named in a group's line; the JSON and SARIF reports hold every one. */
export const TOP_LOCATIONS = 3;

/** Deterministic rows as a table of one line per rule, severity and kind of file, with a count and the first places. */
export function formatRowGroups(rows: readonly ReportRow[]): string {
  return formatTable(
    GROUP_HEADER,
    groupReportRows(rows).map((group) => [
      group.severity,
      escapeMarkdownLine(group.title),
      FILE_KIND_LABELS[group.fileKind],
      String(group.rows.length),
      formatTopLocations(group.rows),
    ]),
  );
}

/** `a.js:3, b.js:9, c.js:1 and 4 more`. */
function formatTopLocations(rows: readonly ReportRow[]): string {
  const shown = rows
    .slice(0, TOP_LOCATIONS)
    .map((row) => escapeMarkdownLine(formatRowLocation(row)));
  const hidden = rows.length - shown.length;
  return hidden > 0 ? `${shown.join(', ')} and ${hidden} more` : shown.join(', ');
}
