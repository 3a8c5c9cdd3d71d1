import { normaliseEvidence } from '../report/sarif/fingerprint-result.js';

/**
 * Lines either side of the cited range where the evidence may start: models count lines in a long
 * chunk without line numbers and land a few off; further away, a match is more likely another place.
 */
export const EVIDENCE_WINDOW_LINES = 5;

/** Source lines one `...` in the evidence may skip: a gap inside one function, not across a file. */
export const MAX_ELLIPSIS_GAP_LINES = 40;

/** Non-space characters evidence needs: shorter text (`}`, `});`) matches almost any code. */
export const MIN_EVIDENCE_CHARS = 6;

// `...` or `…` standing for skipped text, inside a line or as a line of its own.
const ELLIPSIS = /\s*(?:\.\.\.|…)\s*/;
// A part header copied into the evidence: the model saw it, but it is not a line of the file.
const PART_HEADER = /^=== .+ ===$/;

interface EvidenceLine {
  /** Pieces that must occur in this order in one source line. */
  pieces: string[];
  /** Whether a `...` line before it lets source lines be skipped. */
  isAfterGap: boolean;
}

/** Where evidence was found: 1-based lines and the matched source lines (skipped ones left out). */
export interface EvidenceLocation {
  startLine: number;
  endLine: number;
  matchedText: string;
}

/**
 * Finds `evidence` in `fileLines` (the file as the model saw it) starting within
 * `EVIDENCE_WINDOW_LINES` of `line..endLine`, nearest the cited line first. Whitespace is collapsed
 * and trimmed per line, blank lines are skipped, each evidence line may be part of its source line,
 * `...` is a gap, and every matched line must satisfy `isReviewed`.
 */
export function locateEvidence(
  evidence: string,
  fileLines: readonly string[],
  cited: { line: number; endLine: number },
  isReviewed: (line: number) => boolean,
): EvidenceLocation | 'too-short' | 'not-found' {
  const pattern = parseEvidence(evidence);
  if (
    pattern.reduce((sum, line) => sum + line.pieces.join('').replace(/\s/g, '').length, 0) <
    MIN_EVIDENCE_CHARS
  )
    return 'too-short';
  const normalised = new Map<number, string>();
  const source: SourceView = {
    lineCount: fileLines.length,
    lineAt: (line) => {
      let text = normalised.get(line);
      if (text === undefined) {
        text = normaliseEvidence(fileLines[line - 1] ?? '');
        normalised.set(line, text);
      }
      return text;
    },
    isReviewed,
    failed: new Set(),
  };
  const first = Math.max(1, cited.line - EVIDENCE_WINDOW_LINES);
  const last = Math.min(fileLines.length, cited.endLine + EVIDENCE_WINDOW_LINES);
  const starts = Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
  starts.sort((a, b) => distance(a, cited) - distance(b, cited) || a - b);
  for (const start of starts) {
    const matched = matchFrom(pattern, 0, start, source);
    if (matched !== undefined) {
      return {
        startLine: start,
        endLine: matched[matched.length - 1] ?? start,
        matchedText: matched.map((line) => fileLines[line - 1] ?? '').join('\n'),
      };
    }
  }
  return 'not-found';
}

function parseEvidence(evidence: string): EvidenceLine[] {
  const lines: EvidenceLine[] = [];
  let isAfterGap = false;
  for (const raw of evidence.split('\n')) {
    const text = normaliseEvidence(raw);
    if (text === '' || PART_HEADER.test(text)) continue;
    const pieces = text.split(ELLIPSIS).filter((piece) => piece !== '');
    if (pieces.length === 0) {
      isAfterGap = lines.length > 0;
      continue;
    }
    lines.push({ pieces, isAfterGap });
    isAfterGap = false;
  }
  return lines;
}

interface SourceView {
  lineCount: number;
  lineAt: (line: number) => string;
  isReviewed: (line: number) => boolean;
  /** `index:line` pairs already known not to match, so `...` gaps never backtrack twice. */
  failed: Set<string>;
}

/** The source lines matching `pattern[index..]` with its first line at `line`, or undefined. */
function matchFrom(
  pattern: readonly EvidenceLine[],
  index: number,
  line: number,
  source: SourceView,
): number[] | undefined {
  const item = pattern[index];
  if (item === undefined) return [];
  const key = `${index}:${line}`;
  if (source.failed.has(key)) return undefined;
  const matched = matchItem(pattern, index, item, line, source);
  if (matched === undefined) source.failed.add(key);
  return matched;
}

function matchItem(
  pattern: readonly EvidenceLine[],
  index: number,
  item: EvidenceLine,
  line: number,
  source: SourceView,
): number[] | undefined {
  if (line > source.lineCount || !source.isReviewed(line)) return undefined;
  if (!containsInOrder(source.lineAt(line), item.pieces)) return undefined;
  const next = pattern[index + 1];
  if (next === undefined) return [line];
  const limit = next.isAfterGap ? MAX_ELLIPSIS_GAP_LINES + 1 : 1;
  for (
    let candidate = line + 1, tried = 0;
    candidate <= source.lineCount && tried < limit;
    candidate++
  ) {
    if (source.lineAt(candidate) === '') continue;
    const rest = matchFrom(pattern, index + 1, candidate, source);
    if (rest !== undefined) return [line, ...rest];
    tried++;
  }
  return undefined;
}

function containsInOrder(text: string, pieces: readonly string[]): boolean {
  let from = 0;
  for (const piece of pieces) {
    const at = text.indexOf(piece, from);
    if (at === -1) return false;
    from = at + piece.length;
  }
  return true;
}

function distance(line: number, cited: { line: number; endLine: number }): number {
  if (line < cited.line) return cited.line - line;
  return line > cited.endLine ? line - cited.endLine : 0;
}
