import { normaliseEvidence } from '../report/sarif/fingerprint-result.js';

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
 * Finds `evidence` in the reviewed lines of `fileLines` (the file as the model saw it), however far
 * from `line..endLine`: models miscount lines in long chunks without line numbers, so the evidence
 * decides the place and the cited line only picks the nearest of several matches. Whitespace is collapsed
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
    failed: new Uint8Array((pattern.length + 1) * (fileLines.length + 2)),
  };
  // Every evidence line must occur somewhere reviewed, or no start can match: checked once, linearly.
  for (const item of pattern) {
    let found = false;
    for (let line = 1; line <= fileLines.length && !found; line++)
      found = isReviewed(line) && containsInOrder(source.lineAt(line), item.pieces);
    if (!found) return 'not-found';
  }
  for (const start of nearestFirst(cited, fileLines.length)) {
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
  /** (index, line) pairs already known not to match, so `...` gaps never backtrack twice. */
  failed: Uint8Array;
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
  const key = index * (source.lineCount + 2) + line;
  if (source.failed[key] === 1) return undefined;
  const matched = matchItem(pattern, index, item, line, source);
  if (matched === undefined) source.failed[key] = 1;
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

/** Every line of the file once: the cited range, then outwards one line each side at a time. */
function* nearestFirst(
  cited: { line: number; endLine: number },
  lineCount: number,
): Generator<number> {
  const low = Math.min(Math.max(1, cited.line), lineCount + 1);
  const high = Math.min(Math.max(low, cited.endLine), lineCount);
  for (let line = low; line <= high; line++) yield line;
  for (let step = 1; low - step >= 1 || high + step <= lineCount; step++) {
    if (low - step >= 1) yield low - step;
    if (high + step <= lineCount) yield high + step;
  }
}
