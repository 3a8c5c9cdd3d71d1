import { ALLOW_MARKER } from '../scan/scan-text.js';
import type { Redaction } from '../types.js';

/** A secret on a line a commit added: rule and line, never the value. */
export interface AddedSecret {
  rule: string;
  /** 1-based line where the value starts, in the commit's version of the file. */
  line: number;
  /** The line carries an `oy:allow` marker, as a line of the work tree can. */
  isAllowed: boolean;
}

export type Redact = (text: string) => { text: string; redactions: Redaction[] };

/**
 * Lines kept around each added line, so a rule that reads a window (a Kubernetes Secret manifest
 * reads 60 lines around its keyword, a private key block spans its body) still sees its context.
 * Lines further away are blanked: the scan costs what the commit changed, not the file's size.
 */
export const CONTEXT_LINES = 60;

/**
 * The secrets of one version of a file that lie on its added lines (`addedLines`, 1-based,
 * ascending). A value spanning several lines (a key block) counts when any of its lines is added,
 * so a key replaced inside unchanged BEGIN/END lines is still found.
 */
export function findAddedSecrets(
  lines: readonly string[],
  addedLines: readonly number[],
  redact: Redact,
): AddedSecret[] {
  if (addedLines.length === 0) return [];
  const view = keepAroundAdded(lines, addedLines);
  const { text, redactions } = redact(view.join('\n'));
  if (redactions.length === 0) return [];
  const redactedLines = text.split('\n');
  const added = new Set(addedLines);
  const secrets: AddedSecret[] = [];
  // Redactions come in text order: the next value's start line, found from the end.
  const nextStarts: (number | undefined)[] = [];
  let nextStart: number | undefined;
  for (let index = redactions.length - 1; index >= 0; index--) {
    const line = redactions[index]?.line ?? 0;
    nextStarts[index] = nextStart;
    if (nextStart === undefined || line < nextStart) nextStart = line;
  }
  redactions.forEach((redaction, index) => {
    const last = lastLineOf(redaction.line, nextStarts[index], view, redactedLines);
    for (let line = redaction.line; line <= last; line++) {
      if (!added.has(line)) continue;
      secrets.push({
        rule: redaction.rule,
        line: redaction.line,
        isAllowed: ALLOW_MARKER.test(lines[redaction.line - 1] ?? ''),
      });
      return;
    }
  });
  return secrets;
}

/** The lines, with every line further than CONTEXT_LINES from an added one emptied. */
function keepAroundAdded(lines: readonly string[], addedLines: readonly number[]): string[] {
  if (addedLines.length === lines.length) return [...lines];
  const view: string[] = new Array<string>(lines.length).fill('');
  let keptUpTo = 0;
  for (const line of addedLines) {
    const from = Math.max(keptUpTo, line - 1 - CONTEXT_LINES);
    const to = Math.min(lines.length, line + CONTEXT_LINES);
    for (let index = from; index < to; index++) view[index] = lines[index] ?? '';
    keptUpTo = Math.max(keptUpTo, to);
  }
  return view;
}

/**
 * The last line a redacted value covers: the redactor keeps the line count, emptying the lines a
 * multi-line value spanned, so they are the lines after its start that the redaction changed
 * (up to the next value's start line).
 */
function lastLineOf(
  start: number,
  nextStart: number | undefined,
  original: readonly string[],
  redacted: readonly string[],
): number {
  let last = start;
  const limit = Math.min(original.length, (nextStart ?? Infinity) - 1);
  while (last < limit && redacted[last] !== original[last]) last++;
  return last;
}
