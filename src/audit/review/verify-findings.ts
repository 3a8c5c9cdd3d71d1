import { createHash } from 'node:crypto';
import { normaliseEvidence } from '../report/sarif/fingerprint-result.js';
import type { Finding } from '../types.js';
import { EVIDENCE_WINDOW_LINES, MIN_EVIDENCE_CHARS, locateEvidence } from './locate-evidence.js';
import type { RawFinding } from './raw-finding.js';

/** 1-based, inclusive lines of a file that a model saw. */
export interface LineRange {
  startLine: number;
  endLine: number;
}

export type UnverifiedFinding = Finding & { reason: string };

/**
 * Checks each finding against the source the model saw: its path was reviewed, its cited line is
 * in the file and in a reviewed range, and its evidence is found near that line. A verified finding
 * gets the lines where its evidence is and a fingerprint; the others keep the reason they failed.
 */
export function verifyFindings(
  findings: readonly RawFinding[],
  sources: ReadonlyMap<string, string>,
  reviewedRanges: ReadonlyMap<string, readonly LineRange[]>,
): { verified: Finding[]; unverified: UnverifiedFinding[] } {
  const verified: Finding[] = [];
  const unverified: UnverifiedFinding[] = [];
  const linesByPath = new Map<string, string[]>();
  for (const raw of findings) {
    const finding: Finding = {
      ...raw,
      fingerprint: fingerprintFinding(raw.category, raw.path, raw.evidence),
    };
    const ranges = reviewedRanges.get(raw.path);
    const source = sources.get(raw.path);
    if (ranges === undefined || source === undefined) {
      const reason =
        source === undefined
          ? `path ${raw.path} is not a reviewed file`
          : `path ${raw.path} was not in the reviewed chunk`;
      unverified.push({ ...finding, reason });
      continue;
    }
    let fileLines = linesByPath.get(raw.path);
    if (fileLines === undefined) {
      fileLines = splitLines(source);
      linesByPath.set(raw.path, fileLines);
    }
    const isReviewed = (line: number): boolean =>
      ranges.some((range) => line >= range.startLine && line <= range.endLine);
    if (raw.line > fileLines.length) {
      unverified.push({
        ...finding,
        reason: `line ${raw.line} is past the end of ${raw.path} (${fileLines.length} lines)`,
      });
      continue;
    }
    if (!isReviewed(raw.line)) {
      unverified.push({
        ...finding,
        reason: `line ${raw.line} is outside the reviewed lines ${ranges.map(formatRange).join(', ')} of ${raw.path}`,
      });
      continue;
    }
    const location = locateEvidence(raw.evidence, fileLines, raw, isReviewed);
    if (location === 'too-short') {
      unverified.push({
        ...finding,
        reason: `evidence is too short to locate (under ${MIN_EVIDENCE_CHARS} characters)`,
      });
    } else if (location === 'not-found') {
      unverified.push({
        ...finding,
        reason: `evidence not found within ${EVIDENCE_WINDOW_LINES} lines of line ${formatCited(raw)}`,
      });
    } else {
      verified.push({
        ...finding,
        line: location.startLine,
        endLine: location.endLine,
        fingerprint: fingerprintFinding(raw.category, raw.path, location.matchedText),
      });
    }
  }
  return { verified, unverified };
}

/**
 * sha256 (hex) of category, path and evidence normalised as SARIF fingerprints are (whitespace
 * collapsed, placeholder numbers dropped), never the line, so the finding keeps it when code moves.
 * A verified finding hashes the source lines its evidence matched, not the model's copy of them.
 */
export function fingerprintFinding(category: string, path: string, evidence: string): string {
  return createHash('sha256')
    .update([category, path, normaliseEvidence(evidence)].join('\0'))
    .digest('hex');
}

// A final newline ends the last line; it does not start another.
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function formatRange(range: LineRange): string {
  return `${range.startLine}-${range.endLine}`;
}

function formatCited(finding: RawFinding): string {
  return finding.endLine === finding.line
    ? `${finding.line}`
    : `${finding.line}-${finding.endLine}`;
}
