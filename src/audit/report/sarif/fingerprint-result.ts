import { createHash } from 'node:crypto';

// Placeholder numbers are stable within a run only, so they must not move a fingerprint.
const PLACEHOLDER_NUMBER = /\[REDACTED:([^\]:]+):\d+\]/g;

/**
 * The `oyFingerprint/v1` of a result: sha256 of its rule id, path and whitespace-normalised
 * evidence, never its line, so the result keeps its identity when code above it moves.
 * `occurrence` (1-based) tells apart identical text repeated in one file.
 */
export function fingerprintResult(
  ruleId: string,
  path: string,
  text: string,
  occurrence: number,
): string {
  const hash = createHash('sha256')
    .update([ruleId, path, normaliseEvidence(text)].join('\0'))
    .digest('hex');
  return `${hash}:${occurrence}`;
}

/** Whitespace collapsed and trimmed, redaction placeholders without their per-run number. */
export function normaliseEvidence(text: string): string {
  return text.replace(PLACEHOLDER_NUMBER, '[REDACTED:$1]').replace(/\s+/g, ' ').trim();
}
