import { findInlineEdits, type ViewEdit } from './find-inline-edits.js';
import { findJoinedListEdits } from './find-joined-list-edits.js';
import { foldConfusables } from './fold-confusables.js';
import type { ValueRange } from './redaction-rule.js';

/**
 * The text the rules read: the original with what hides a secret from them undone, and a way back
 * to the original's offsets. Undone: terminal escapes and invisible characters (taken out), the
 * joints of split string literals (`"ghp_abc" + "def"`, `"abc" "def"`, `"".join(["abc", "def"])`,
 * `${"abc"}`), escapes of token characters (`\u005f`, `%5F`), and look-alike letters (Cyrillic `а`).
 */
export interface ScanView {
  text: string;
  /** Whether the view holds an edit the text may refute (literals side by side on a line, `%64`). */
  hasSoftEdits: boolean;
  /** The original range covering a range of the view (what was changed inside it included). */
  toOriginal(range: ValueRange): ValueRange;
}

interface PlacedEdit extends ViewEdit {
  /** Where the edit's replacement starts in the view. */
  viewAt: number;
}

/**
 * The view of `text` the rules read; the text itself when nothing is to be undone. Without
 * `withSoftEdits`, literals side by side on a line stay apart (shell arguments).
 */
export function createScanView(text: string, withSoftEdits = true): ScanView {
  const found = [...findInlineEdits(text), ...findJoinedListEdits(text)];
  const hasSoftEdits = found.some((edit) => edit.isSoft === true);
  const edits = withSoftEdits ? found : found.filter((edit) => edit.isSoft !== true);
  if (edits.length === 0) {
    return { text: foldConfusables(text), hasSoftEdits, toOriginal: (range) => range };
  }
  const placed = placeEdits(edits);
  const pieces: string[] = [];
  let cursor = 0;
  for (const edit of placed) {
    pieces.push(text.slice(cursor, edit.at), edit.replacement);
    cursor = edit.at + edit.length;
  }
  pieces.push(text.slice(cursor));
  return {
    // Folding keeps every length, so the offsets of the edits hold for the folded text too.
    text: foldConfusables(pieces.join('')),
    hasSoftEdits,
    toOriginal: ({ start, end }) => ({
      start: toOriginalOffset(start, placed, false),
      end: toOriginalOffset(end, placed, true),
    }),
  };
}

/** The edits in text order, overlapping ones dropped, each with its place in the view. */
function placeEdits(edits: ViewEdit[]): PlacedEdit[] {
  edits.sort((a, b) => a.at - b.at || b.length - a.length);
  const placed: PlacedEdit[] = [];
  let originalEnd = 0;
  let shift = 0;
  for (const edit of edits) {
    if (edit.at < originalEnd) continue;
    placed.push({ ...edit, viewAt: edit.at + shift });
    shift += edit.replacement.length - edit.length;
    originalEnd = edit.at + edit.length;
  }
  return placed;
}

/**
 * The original offset of view offset `offset`. A range's start skips a cut it starts at and takes
 * a decoded character whole; its end stops before a cut it ends at and takes a decoded character
 * whole. So a cut is inside a range only when text of the range is on both sides of it.
 */
function toOriginalOffset(offset: number, edits: readonly PlacedEdit[], isEnd: boolean): number {
  // The last edit whose replacement starts at or before the offset.
  let low = 0;
  let high = edits.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((edits[middle]?.viewAt ?? 0) <= offset) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (found === -1) return offset;
  const edit = edits[found] as PlacedEdit;
  const viewEnd = edit.viewAt + edit.replacement.length;
  const originalEnd = edit.at + edit.length;
  if (offset > viewEnd) return offset + (originalEnd - viewEnd);
  if (offset === viewEnd && offset > edit.viewAt) return originalEnd;
  if (offset > edit.viewAt) return isEnd ? originalEnd : edit.at;
  // At the edit's start: a cut is skipped by a start and left out by an end.
  if (edit.replacement.length === 0) return isEnd ? edit.at : originalEnd;
  return edit.at;
}
