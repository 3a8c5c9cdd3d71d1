import { stripVTControlCharacters } from 'node:util';
import { visibleForm } from './display-width.js';
import type { EditState } from './edit-buffer.js';

const CSI = '\x1b[';

/** Where things land on screen, in rows below the prompt's first row and columns from the left. */
export interface InputLayout {
  /** The prompts and the text, with line breaks; written right after clearing from the prompt start. */
  readonly content: string;
  readonly cursorRow: number;
  readonly cursorCol: number;
  readonly endRow: number;
  readonly endCol: number;
  /** The last row was filled to the last column, so the cursor already sits at a new row's start. */
  readonly endsWithWrap: boolean;
}

export interface Prompts {
  readonly first: string;
  readonly continuation: string;
}

/**
 * Lays out the (possibly multi-line) input as the terminal will wrap it at `columns`, so the
 * cursor can be placed exactly. A row filled to the last column is closed with an explicit line
 * break: terminals leave the cursor pending on that last column until the next character.
 * A `hint` (one row of our own text, cut to fit) goes on the row below the input.
 */
export function layoutInput(
  prompts: Prompts,
  state: EditState,
  columns: number,
  hint?: { text: string; style: (text: string) => string },
): InputLayout {
  const width = Math.max(columns, 2);
  let content = '';
  let row = 0;
  let col = 0;
  let cursorRow = 0;
  let cursorCol = 0;
  let endsWithWrap = false;
  const place = (cells: number) => {
    if (col + cells > width) {
      row++;
      col = 0;
    }
    col += cells;
  };
  const lines = state.text.split('\n');
  let offset = 0;
  lines.forEach((line, index) => {
    const prompt = index === 0 ? prompts.first : prompts.continuation;
    content += prompt;
    for (const char of stripVTControlCharacters(prompt)) place(visibleForm(char).width);
    for (const char of line) {
      const shown = visibleForm(char);
      if (col + shown.width > width) {
        row++;
        col = 0;
      }
      if (offset === state.cursor) [cursorRow, cursorCol] = [row, col];
      content += shown.text;
      col += shown.width;
      offset += char.length;
    }
    endsWithWrap = col >= width;
    if (endsWithWrap) {
      content += '\r\n';
      row++;
      col = 0;
    }
    if (offset === state.cursor) [cursorRow, cursorCol] = [row, col];
    if (index < lines.length - 1) {
      content += '\r\n';
      row++;
      col = 0;
      offset++;
    }
  });
  if (hint !== undefined && hint.text !== '') {
    const shown = [...hint.text].slice(0, width - 1).join('');
    content += `${endsWithWrap ? '' : '\r\n'}${hint.style(shown)}`;
    if (!endsWithWrap) row++;
    return {
      content,
      cursorRow,
      cursorCol,
      endRow: row,
      endCol: shown.length,
      endsWithWrap: false,
    };
  }
  return { content, cursorRow, cursorCol, endRow: row, endCol: col, endsWithWrap };
}

/** Redraws the input in place: back to the prompt's first row, clear below, draw, place the cursor. */
export function redrawSequence(previousCursorRow: number, layout: InputLayout): string {
  const up = previousCursorRow > 0 ? `${CSI}${previousCursorRow}A` : '';
  return (
    `${up}\r${CSI}J${layout.content}` +
    moveCursor(layout.endRow, layout.endCol, layout.cursorRow, layout.cursorCol)
  );
}

/** From the cursor to just after the end of the input, ready for a line break. */
export function moveToEndSequence(layout: InputLayout): string {
  return moveCursor(layout.cursorRow, layout.cursorCol, layout.endRow, layout.endCol);
}

function moveCursor(fromRow: number, fromCol: number, toRow: number, toCol: number): string {
  let sequence = '';
  if (fromRow > toRow) sequence += `${CSI}${fromRow - toRow}A`;
  if (toRow > fromRow) sequence += `${CSI}${toRow - fromRow}B`;
  if (fromCol !== toCol) sequence += toCol > 0 ? `\r${CSI}${toCol}C` : '\r';
  return sequence;
}
