import { toPlainLine, type SessionSummary } from '../../agent/index.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';

const HEADER = ['#', 'id', 'updated', 'turns', 'cost', 'first prompt'] as const;

/** `oy sessions` as an aligned table, newest first; the last column is left ragged. */
export function renderSessionList(sessions: readonly SessionSummary[], colors: Colors): string {
  const rows = sessions.map((session) =>
    [
      String(session.number),
      session.id,
      formatLocalTime(session.updatedAt),
      String(session.turns),
      formatCost(session.costUsd),
      session.name === undefined
        ? session.firstPrompt
        : `[${toPlainLine(session.name)}] ${session.firstPrompt}`,
    ].map((cell) => neutralizeControl(cell, { lineBreaks: 'show' })),
  );
  const widths = HEADER.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const format = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === cells.length - 1
          ? cell
          : column === 0 || column === 3 || column === 4
            ? cell.padStart(widths[column]!)
            : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [colors.dim(format(HEADER)), ...rows.map(format)].join('\n') + '\n';
}

function formatCost(costUsd: number | null): string {
  // Unknown when some turn used a model without a known price.
  return costUsd === null ? '?' : `$${costUsd.toFixed(costUsd < 1 ? 4 : 2)}`;
}

/** `2026-11-22 04:44` in the local time zone. */
function formatLocalTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (value: number): string => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}`
  );
}
