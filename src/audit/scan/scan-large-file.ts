import { createHash } from 'node:crypto';
import {
  binaryAsText,
  blankControlCharacters,
  decodeWideText,
  detectEncoding,
  type TextEncoding,
} from '../collect/decode-text.js';
import { BINARY_SNIFF_BYTES } from '../collect/check-content.js';
import { readUpToSync, withOpenCandidate } from '../collect/read-candidate.js';
import { fileIdentity, type FileIdentity } from '../collect/file-identity.js';
import type { CandidateFile, LedgerEntry, Redaction, ReviewSkip } from '../types.js';
import type { AllowedLine, ScannedFile } from './scanned-file.js';
import { listAllowedLines } from './scan-text.js';

/** A file over `--max-file-bytes` is read for secrets this much at a time. */
export const SECRET_WINDOW_BYTES = 4 * 1024 * 1024;
/**
 * Consecutive windows share this much (whole lines where there are any), so a secret across a
 * window's end, up to a long PEM certificate chain, is whole in one of them.
 */
export const SECRET_WINDOW_OVERLAP_BYTES = 64 * 1024;
/** The secret scan reads at most this much of one file; README says so, and the ledger says when it stopped. */
export const SECRET_SCAN_MAX_BYTES = 64 * 1024 * 1024;

/** The window, overlap and cap sizes in bytes; smaller in tests. */
export interface WindowLimits {
  windowBytes: number;
  overlapBytes: number;
  maxBytes: number;
}

const DEFAULT_LIMITS: WindowLimits = {
  windowBytes: SECRET_WINDOW_BYTES,
  overlapBytes: SECRET_WINDOW_OVERLAP_BYTES,
  maxBytes: SECRET_SCAN_MAX_BYTES,
};

export interface LargeFileScan {
  scanned: ScannedFile;
  identity: FileIdentity;
}

/**
 * Scans a file too large to review for secrets, in overlapping windows up to
 * `SECRET_SCAN_MAX_BYTES`: the same opening checks as any read (no link followed, one name, a
 * regular file), the text decoded as the whole file would be. `redact` must keep its numbering
 * across calls (one redactor), so a secret found in two windows is counted once.
 */
export function scanLargeFile(
  candidate: CandidateFile & { reviewSkip: ReviewSkip },
  redact: (text: string) => { text: string; redactions: Redaction[] },
  limits: WindowLimits = DEFAULT_LIMITS,
): LargeFileScan | { entry: LedgerEntry } {
  const { windowBytes, overlapBytes, maxBytes } = limits;
  return withOpenCandidate(candidate, (fd, stats) => {
    const limit = Math.min(stats.size, maxBytes);
    const hash = createHash('sha256');
    const found = new Map<string, { redaction: Redaction; count: number }>();
    const allowed = new Map<number, AllowedLine>();
    const head = readUpToSync(fd, 0, Math.min(BINARY_SNIFF_BYTES, limit));
    const { encoding, markBytes } = detectEncoding(head, BINARY_SNIFF_BYTES);
    const unit = UNIT_BYTES[encoding];
    hash.update(head.subarray(0, markBytes));
    // The mark is not text: the first window starts after it.
    let position = markBytes;
    let hashedUpTo = markBytes;
    let lineAtPosition = 1;
    let lineCount = 0;
    while (position < limit) {
      const bytes = readUpToSync(fd, position, Math.min(windowBytes, limit - position));
      if (bytes.length === 0) break;
      const isLast = position + bytes.length >= limit;
      const end = isLast ? bytes.length : findWindowEnd(bytes, encoding, unit);
      const window = bytes.subarray(0, end);
      const source = decodeWindow(window, encoding);
      const redacted = redact(source);
      // What starts at or after the next window's first whole line is that window's to find
      // whole (a key block this window cuts off included); a line both share is counted by value.
      const next = isLast ? null : findOverlapStart(window, encoding, unit, overlapBytes);
      const nextLine =
        next === null
          ? Infinity
          : lineAtPosition + countLineFeeds(window.subarray(0, next.start), encoding, unit);
      const owned = redacted.redactions.filter((redaction) => {
        const line = redaction.line + lineAtPosition - 1;
        return line < nextLine || (line === nextLine && next?.isLineStart === false);
      });
      countWindow(found, owned, lineAtPosition - 1);
      for (const line of listAllowedLines(source, redacted.text, owned)) {
        const shifted = line.line + lineAtPosition - 1;
        allowed.set(shifted, { line: shifted, digest: line.digest });
      }
      hash.update(window.subarray(hashedUpTo - position));
      hashedUpTo = position + end;
      lineCount = lineAtPosition + countLineFeeds(window, encoding, unit);
      if (next === null) break;
      lineAtPosition = nextLine;
      position += next.start;
    }
    const redactions = [...found.values()].flatMap(({ redaction, count }) =>
      Array.from({ length: count }, () => redaction),
    );
    redactions.sort((a, b) => a.line - b.line);
    const sourceHash = hash.digest('hex');
    const scanned: ScannedFile = {
      path: candidate.path,
      size: stats.size,
      isTracked: candidate.isTracked,
      sourceHash,
      contentHash: sourceHash,
      tokens: 0,
      lineCount,
      redactions,
      hints: [],
      reviewSkip: candidate.reviewSkip,
      isSecretsOnly: true,
    };
    if (stats.size > limit) scanned.secretsScannedBytes = limit;
    if (allowed.size > 0) scanned.allowedSecretLines = [...allowed.values()];
    return { scanned, identity: fileIdentity(stats) };
  });
}

const UNIT_BYTES: Readonly<Record<TextEncoding, number>> = {
  'utf-8': 1,
  'utf-16le': 2,
  'utf-16be': 2,
  'utf-32le': 4,
  'utf-32be': 4,
};

function decodeWindow(window: Buffer, encoding: TextEncoding): string {
  if (encoding !== 'utf-8') return blankControlCharacters(decodeWideText(window, encoding));
  // Lossy UTF-8 keeps line feeds; binary bytes are read the way `strings` reads them.
  return window.includes(0) ? binaryAsText(window) : window.toString('utf8');
}

/** Where a line feed of this encoding starts at `at` (aligned to the code unit). */
function isLineFeedAt(bytes: Buffer, at: number, encoding: TextEncoding): boolean {
  switch (encoding) {
    case 'utf-8':
      return bytes[at] === 0x0a;
    case 'utf-16le':
      return bytes[at] === 0x0a && bytes[at + 1] === 0;
    case 'utf-16be':
      return bytes[at] === 0 && bytes[at + 1] === 0x0a;
    case 'utf-32le':
      return bytes[at] === 0x0a && bytes.readUInt16BE(at + 1) === 0 && bytes[at + 3] === 0;
    case 'utf-32be':
      return bytes.readUInt16BE(at) === 0 && bytes[at + 2] === 0 && bytes[at + 3] === 0x0a;
  }
}

/** Just after the last line feed in the window's second half, or its end cut to whole units. */
function findWindowEnd(bytes: Buffer, encoding: TextEncoding, unit: number): number {
  const aligned = bytes.length - (bytes.length % unit);
  for (let at = aligned - unit; at >= aligned / 2; at -= unit) {
    if (isLineFeedAt(bytes, at, encoding)) return at + unit;
  }
  return aligned;
}

/**
 * Where the next window starts: the first line start in this one's last `overlapBytes`, or,
 * inside one long line, that many bytes before its end.
 */
function findOverlapStart(
  window: Buffer,
  encoding: TextEncoding,
  unit: number,
  overlapBytes: number,
): { start: number; isLineStart: boolean } {
  const from = Math.max(unit, window.length - overlapBytes);
  const start = from - (from % unit);
  for (let at = start; at + unit <= window.length; at += unit) {
    if (isLineFeedAt(window, at - unit, encoding)) return { start: at, isLineStart: true };
  }
  return { start, isLineStart: false };
}

function countLineFeeds(bytes: Buffer, encoding: TextEncoding, unit: number): number {
  let count = 0;
  if (unit === 1) {
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count++;
    return count;
  }
  for (let at = 0; at + unit <= bytes.length; at += unit)
    if (isLineFeedAt(bytes, at, encoding)) count++;
  return count;
}

/**
 * Adds a window's redactions, shifted to file lines. On a line two windows share (one line longer
 * than the overlap) a secret may be found by both: per line and value (the placeholder names
 * both, one redactor numbering every window), the larger of the two counts is kept.
 */
function countWindow(
  found: Map<string, { redaction: Redaction; count: number }>,
  redactions: readonly Redaction[],
  lineOffset: number,
): void {
  const inWindow = new Map<string, { redaction: Redaction; count: number }>();
  for (const redaction of redactions) {
    const shifted = { ...redaction, line: redaction.line + lineOffset };
    const key = `${shifted.line}\0${shifted.placeholder}`;
    const entry = inWindow.get(key);
    if (entry === undefined) inWindow.set(key, { redaction: shifted, count: 1 });
    else entry.count++;
  }
  for (const [key, entry] of inWindow) {
    const known = found.get(key);
    if (known === undefined || known.count < entry.count) found.set(key, entry);
  }
}
