/** The text being edited and the cursor, a UTF-16 offset into it (never inside a surrogate pair). */
export interface EditState {
  readonly text: string;
  readonly cursor: number;
}

export const EMPTY_EDIT: EditState = { text: '', cursor: 0 };

export function insertText(state: EditState, inserted: string): EditState {
  const { text, cursor } = state;
  return {
    text: text.slice(0, cursor) + inserted + text.slice(cursor),
    cursor: cursor + inserted.length,
  };
}

export function deleteBackward(state: EditState): EditState {
  if (state.cursor === 0) return state;
  const start = previousOffset(state.text, state.cursor);
  return { text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

export function deleteForward(state: EditState): EditState {
  if (state.cursor >= state.text.length) return state;
  const end = nextOffset(state.text, state.cursor);
  return { text: state.text.slice(0, state.cursor) + state.text.slice(end), cursor: state.cursor };
}

export function moveLeft(state: EditState): EditState {
  return { text: state.text, cursor: previousOffset(state.text, state.cursor) };
}

export function moveRight(state: EditState): EditState {
  return { text: state.text, cursor: nextOffset(state.text, state.cursor) };
}

export function moveToEnd(state: EditState): EditState {
  return { text: state.text, cursor: state.text.length };
}

export function moveLineStart(state: EditState): EditState {
  return { text: state.text, cursor: lineStart(state.text, state.cursor) };
}

export function moveLineEnd(state: EditState): EditState {
  return { text: state.text, cursor: lineEnd(state.text, state.cursor) };
}

/** Ctrl-U: deletes from the start of the cursor's line to the cursor. */
export function killToLineStart(state: EditState): EditState {
  const start = lineStart(state.text, state.cursor);
  return { text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

/** Ctrl-K: deletes from the cursor to the end of its line. */
export function killToLineEnd(state: EditState): EditState {
  const end = lineEnd(state.text, state.cursor);
  return { text: state.text.slice(0, state.cursor) + state.text.slice(end), cursor: state.cursor };
}

/** Ctrl-W: deletes the whitespace-delimited word before the cursor (a newline on its own). */
export function deleteWordBackward(state: EditState): EditState {
  const start = wordStartBefore(state.text, state.cursor);
  return { text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

export function moveWordLeft(state: EditState): EditState {
  return { text: state.text, cursor: wordStartBefore(state.text, state.cursor) };
}

export function moveWordRight(state: EditState): EditState {
  const { text } = state;
  let offset = state.cursor;
  while (offset < text.length && isSpace(text[offset])) offset++;
  while (offset < text.length && !isSpace(text[offset])) offset++;
  return { text, cursor: offset };
}

/** Moves to the previous line at the same column; undefined on the first line. */
export function moveLineUp(state: EditState): EditState | undefined {
  const start = lineStart(state.text, state.cursor);
  if (start === 0) return undefined;
  const previousStart = lineStart(state.text, start - 1);
  return { text: state.text, cursor: atColumn(state.text, previousStart, state.cursor - start) };
}

/** Moves to the next line at the same column; undefined on the last line. */
export function moveLineDown(state: EditState): EditState | undefined {
  const end = lineEnd(state.text, state.cursor);
  if (end >= state.text.length) return undefined;
  const column = state.cursor - lineStart(state.text, state.cursor);
  return { text: state.text, cursor: atColumn(state.text, end + 1, column) };
}

function atColumn(text: string, start: number, column: number): number {
  const offset = Math.min(start + column, lineEnd(text, start));
  return isLowSurrogate(text.charCodeAt(offset)) ? offset - 1 : offset;
}

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf('\n', cursor);
  return end === -1 ? text.length : end;
}

function wordStartBefore(text: string, cursor: number): number {
  if (cursor > 0 && text[cursor - 1] === '\n') return cursor - 1;
  let offset = cursor;
  while (offset > 0 && isSpace(text[offset - 1]) && text[offset - 1] !== '\n') offset--;
  while (offset > 0 && !isSpace(text[offset - 1])) offset--;
  return offset;
}

function isSpace(char: string | undefined): boolean {
  return char !== undefined && /\s/.test(char);
}

function previousOffset(text: string, offset: number): number {
  if (offset <= 0) return 0;
  return offset >= 2 && isLowSurrogate(text.charCodeAt(offset - 1)) ? offset - 2 : offset - 1;
}

function nextOffset(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  return isLowSurrogate(text.charCodeAt(offset + 1)) ? offset + 2 : offset + 1;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
