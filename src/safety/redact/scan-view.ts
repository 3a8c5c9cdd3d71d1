import type { ValueRange } from './redaction-rule.js';

/**
 * The text the rules read: the original with what hides a secret from them taken out, and a way
 * back to the original's offsets. Taken out: terminal escape sequences (`ESC[32mghp_...`) and the
 * joints of string concatenation (`"ghp_abc" + "def..."`), so a value split by either is read whole.
 */
export interface ScanView {
  text: string;
  /** The original range covering a range of the view (what was taken out inside it included). */
  toOriginal(range: ValueRange): ValueRange;
}

// What is taken out, in one pass: terminal escapes (CSI `ESC [ ... final` or the 8-bit CSI, OSC
// `ESC ] ... BEL` or `ESC ] ... ESC \`, and the two-character escapes), and concatenation joints (a
// literal closed, `+` or ` . ` (PHP, Perl), the next literal opened with the same quote, a line
// break allowed on either side of the operator).
const CUT =
  // eslint-disable-next-line no-control-regex -- terminal escape sequences are what is taken out
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|(["'`])(?:[ \t]*(?:\r?\n[ \t]*)?\+[ \t]*(?:\r?\n[ \t]*)?|[ \t]+\.[ \t]+)\1/g;

interface Cut {
  /** Where the cut starts in the original. */
  at: number;
  length: number;
}

/** The view of `text` the rules read; the identity when nothing is to be taken out. */
export function createScanView(text: string): ScanView {
  const cuts: Cut[] = [];
  CUT.lastIndex = 0;
  // The whole joint goes, both quotes with it: `"abc" + "def"` reads as `"abcdef"`.
  for (let match = CUT.exec(text); match !== null; match = CUT.exec(text)) {
    cuts.push({ at: match.index, length: match[0].length });
  }
  if (cuts.length === 0) return { text, toOriginal: (range) => range };
  const merged = mergeCuts(cuts);
  const pieces: string[] = [];
  // `starts[i]`: the view offset where the original text after cut i resumes.
  const viewStarts: number[] = [];
  let cursor = 0;
  let viewLength = 0;
  for (const cut of merged) {
    pieces.push(text.slice(cursor, cut.at));
    viewLength += cut.at - cursor;
    viewStarts.push(viewLength);
    cursor = cut.at + cut.length;
  }
  pieces.push(text.slice(cursor));
  return {
    text: pieces.join(''),
    toOriginal: ({ start, end }) => ({
      start: toOriginalOffset(start, merged, viewStarts, false),
      end: toOriginalOffset(end, merged, viewStarts, true),
    }),
  };
}

function mergeCuts(cuts: readonly Cut[]): Cut[] {
  const merged: Cut[] = [];
  for (const cut of cuts) {
    const last = merged[merged.length - 1];
    if (last !== undefined && cut.at <= last.at + last.length) {
      last.length = Math.max(last.length, cut.at + cut.length - last.at);
    } else merged.push({ ...cut });
  }
  return merged;
}

/**
 * The original offset of view offset `offset`. A range's start skips a cut it starts at; its end
 * stops before a cut it ends at, so a cut is inside a range only when text of the range is on both
 * sides of it.
 */
function toOriginalOffset(
  offset: number,
  cuts: readonly Cut[],
  viewStarts: readonly number[],
  isEnd: boolean,
): number {
  let shift = 0;
  for (let index = 0; index < cuts.length; index += 1) {
    const resumesAt = viewStarts[index] ?? 0;
    if (resumesAt < offset || (!isEnd && resumesAt === offset)) shift += cuts[index]?.length ?? 0;
    else break;
  }
  return offset + shift;
}
