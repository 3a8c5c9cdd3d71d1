import type readline from 'node:readline';
import {
  deleteBackward,
  deleteForward,
  deleteWordBackward,
  insertText,
  killToLineEnd,
  killToLineStart,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveWordLeft,
  moveWordRight,
  type EditState,
} from './edit-buffer.js';

/**
 * The keys that only change the text or move the cursor, as readline and bash bind them (Ctrl-A/E/K/U/W,
 * Alt-B/F, arrows, Home/End, Backspace/Delete, printable text). Undefined for any other key: the editor
 * decides what Enter, Tab, Ctrl-C, Ctrl-R and the rest do.
 */
export function editForKey(
  edit: EditState,
  text: string | undefined,
  key: readline.Key,
): EditState | undefined {
  if (key.ctrl && !key.meta) return CONTROL_EDITS.get(key.name ?? '')?.(edit);
  if (key.meta) return META_EDITS.get(key.name ?? '')?.(edit);
  const plain = PLAIN_EDITS.get(key.name ?? '');
  if (plain !== undefined) return plain(edit);
  if (text !== undefined && key.name !== 'tab' && isPrintable(text)) return insertText(edit, text);
  return undefined;
}

type Edit = (edit: EditState) => EditState;

const CONTROL_EDITS: ReadonlyMap<string, Edit> = new Map(
  Object.entries({
    a: moveLineStart,
    e: moveLineEnd,
    u: killToLineStart,
    k: killToLineEnd,
    w: deleteWordBackward,
    b: moveLeft,
    f: moveRight,
    left: moveWordLeft,
    right: moveWordRight,
  }),
);

const META_EDITS: ReadonlyMap<string, Edit> = new Map(
  Object.entries({
    b: moveWordLeft,
    left: moveWordLeft,
    f: moveWordRight,
    right: moveWordRight,
    backspace: deleteWordBackward,
  }),
);

const PLAIN_EDITS: ReadonlyMap<string, Edit> = new Map(
  Object.entries({
    backspace: deleteBackward,
    delete: deleteForward,
    left: moveLeft,
    right: moveRight,
    home: moveLineStart,
    end: moveLineEnd,
  }),
);

/** No control characters: those are keys, never text (a paste brings them in whole, shown inertly). */
export function isPrintable(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}
