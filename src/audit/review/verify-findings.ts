import { createHash } from 'node:crypto';
import { normaliseEvidence } from '../report/sarif/fingerprint-result.js';
import type { Finding } from '../types.js';
import { MIN_EVIDENCE_CHARS, locateEvidence } from './locate-evidence.js';
import type { RawFinding } from './raw-finding.js';

/** 1-based, inclusive lines of a file that a model saw. */
export interface LineRange {
  startLine: number;
  endLine: number;
}

export type UnverifiedFinding = Finding & { reason: string };

/**
 * Checks each finding against the source the model saw: its path was reviewed and its evidence is in
 * the reviewed lines of that file (nearest the cited line when it occurs more than once). A verified
 * finding gets the lines where its evidence is, a fingerprint and, when the model cited another line,
 * `citedLine`; the others keep the reason they failed.
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
    const location = locateEvidence(raw.evidence, fileLines, raw, isReviewed);
    if (typeof location === 'object') {
      verified.push({
        ...finding,
        line: location.startLine,
        endLine: location.endLine,
        // The model's own line stays in the report when the evidence put the finding elsewhere.
        ...(location.startLine === raw.line ? {} : { citedLine: raw.line }),
        fingerprint: fingerprintFinding(raw.category, raw.path, location.matchedText),
      });
      continue;
    }
    unverified.push({ ...finding, reason: describeMiss(location, raw, fileLines.length, ranges) });
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

function describeMiss(
  location: 'too-short' | 'not-found',
  raw: RawFinding,
  lineCount: number,
  ranges: readonly LineRange[],
): string {
  if (location === 'too-short')
    return `evidence is too short to locate (under ${MIN_EVIDENCE_CHARS} characters)`;
  const reviewed = ranges.map(formatRange).join(', ');
  if (raw.line > lineCount)
    return `line ${raw.line} is past the end of ${raw.path} (${lineCount} lines) and the evidence is not in it`;
  if (!ranges.some((range) => raw.line >= range.startLine && raw.line <= range.endLine))
    return `line ${raw.line} is outside the reviewed lines ${reviewed} of ${raw.path} and the evidence is not in them`;
  return `evidence not found in the reviewed lines ${reviewed} of ${raw.path} (cited line ${formatCited(raw)})`;
}

function formatRange(range: LineRange): string {
  return `${range.startLine}-${range.endLine}`;
}

function formatCited(finding: RawFinding): string {
  return finding.endLine === finding.line
    ? `${finding.line}`
    : `${finding.line}-${finding.endLine}`;
}
