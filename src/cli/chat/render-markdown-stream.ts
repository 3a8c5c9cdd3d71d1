import { createControlNeutralizer } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import { colorizeDiffLine } from './colorize-diff.js';
import { highlightCodeLine } from './highlight-code.js';
import { isDelimiterRow, isTableLine, renderTable } from './render/render-table.js';
import { renderInline, renderProse } from './render/render-prose.js';
import { wrapText } from './render/wrap-text.js';

/** A sink for streamed assistant text. */
export interface MarkdownStream {
  write(text: string): void;
  /** Finishes an unfinished line (and a table being built) as if a line break had come. */
  endLine(): void;
  /** Writes any unfinished line (without a line break) and forgets an open code block: the answer is over. */
  end(): void;
}

/** The terminal the answer is drawn on, read at each write (it may be resized). */
export interface MarkdownScreen {
  /** Columns to wrap at; undefined: no wrapping (a file or a pipe). */
  columns(): number | undefined;
  /** Rows of the screen: text still being built is redrawn in place only while it fits. */
  rows(): number | undefined;
}

const FENCE = /^\s*(```+|~~~+)\s*([\w+#.-]*)/u;
const CSI = '\u001b[';
/** Rows kept free under text drawn in place, so redrawing it never needs a row scrolled away. */
const SPARE_ROWS = 2;

/**
 * Terminal Markdown, streamed: each finished line is rendered (headings, lists, quotes, inline
 * spans; fenced code highlighted, diffs coloured) and word-wrapped at the screen width, a table is
 * drawn aligned once its last row has come. On a live screen the unfinished line (and a table being
 * built) is shown raw as it arrives and redrawn rendered when complete. With `isRendered` false the
 * text passes through unformatted. Either way control characters are shown inertly before anything
 * is coloured.
 */
export function createMarkdownStream(
  out: { write(text: string): unknown },
  c: Colors,
  isRendered: boolean,
  screen?: MarkdownScreen,
): MarkdownStream {
  const neutralizer = createControlNeutralizer();
  if (!isRendered) {
    const pass = (text: string) => void (text === '' || out.write(text));
    return {
      write: (text) => pass(neutralizer.push(text)),
      endLine: () => undefined,
      end: () => pass(neutralizer.end()),
    };
  }
  let pending = '';
  let fence: { marker: string; language: string } | undefined;
  let table: string[] = [];
  let shownRows = 0;
  const columns = () => screen?.columns();

  const wrapped = (line: string, prefix?: { first: string; rest: string }): string[] => {
    const width = columns();
    if (width === undefined) return [(prefix?.first ?? '') + line];
    return wrapText(line, width, {
      firstPrefix: prefix?.first ?? '',
      restPrefix: prefix?.rest ?? '',
    });
  };

  const renderLine = (line: string): string[] => {
    const opening = FENCE.exec(line);
    if (fence !== undefined) {
      if (opening !== null && opening[1]!.startsWith(fence.marker) && opening[2] === '') {
        fence = undefined;
        return [c.dim(line)];
      }
      // Code keeps its spaces: the terminal may cut a long line, never re-flow it.
      return [
        fence.language === 'diff' || fence.language === 'patch'
          ? colorizeDiffLine(line, c)
          : highlightCodeLine(line.replaceAll('\t', '    '), fence.language, c),
      ];
    }
    if (opening !== null) {
      fence = { marker: opening[1]!, language: opening[2]!.toLowerCase() };
      return [c.dim(line)];
    }
    const prose = renderProse(line, c, columns());
    return wrapped(prose.body, prose.prefix);
  };

  const flushTable = (): string[] => {
    const lines = table;
    table = [];
    if (lines.length >= 2 && isDelimiterRow(lines[1]!))
      return renderTable(lines, columns(), c, (cell) => renderInline(cell, c));
    return lines.flatMap(renderLine);
  };

  /** A finished line: its rendered rows, or none yet when it is part of a table. */
  const feed = (line: string): string[] => {
    if (fence === undefined && isTableLine(line)) {
      table.push(line);
      return [];
    }
    return [...(table.length > 0 ? flushTable() : []), ...renderLine(line)];
  };

  /** Takes back what was drawn in place, cursor left where it began. */
  const erase = (): string => {
    if (shownRows === 0) return '';
    const up = shownRows > 1 ? `${CSI}${shownRows - 1}A` : '';
    shownRows = 0;
    return `\r${up}${CSI}J`;
  };

  /** The table being built and the unfinished line, raw, as much of them as can be redrawn. */
  const drawInPlace = (): string => {
    const width = columns();
    if (width === undefined || (table.length === 0 && pending === '')) return '';
    const rows = [...table, ...(pending === '' ? [] : [pending])].flatMap((line) =>
      wrapText(line, width),
    );
    const kept = rows.slice(-Math.max(1, (screen?.rows() ?? 24) - SPARE_ROWS));
    shownRows = kept.length;
    return kept.join('\n');
  };

  const commit = (rows: string[]) => rows.map((row) => `${row}\n`).join('');

  return {
    write(text) {
      pending += neutralizer.push(text);
      const lines = pending.split('\n');
      pending = lines.pop()!;
      const finished = commit(lines.flatMap(feed));
      const isLive = columns() !== undefined;
      if (finished === '' && !isLive) return;
      out.write(erase() + finished + drawInPlace());
    },
    endLine() {
      pending += neutralizer.end();
      const rest = pending === '' ? [] : feed(pending);
      pending = '';
      const rows = [...rest, ...(table.length > 0 ? flushTable() : [])];
      const text = erase() + commit(rows);
      if (text !== '') out.write(text);
    },
    end() {
      pending += neutralizer.end();
      const rows = table.length > 0 ? flushTable() : [];
      const last = pending === '' ? [] : feed(pending);
      const tail = table.length > 0 ? flushTable() : [];
      const all = [...rows, ...last, ...tail];
      const text = erase() + all.join('\n');
      if (text !== '') out.write(text);
      pending = '';
      fence = undefined;
    },
  };
}
