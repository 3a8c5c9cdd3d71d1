import { listSecretResults, type ReportRow } from '../report/list-report-rows.js';
import { fingerprintResult } from '../report/sarif/fingerprint-result.js';
import type { ScannedFile } from '../scan/scanned-file.js';
import type { AuditReport, SuppressedResult } from '../types.js';

/** A committed secret or secret-bearing file with the fingerprint a baseline lists it by. */
export interface SecretResult {
  row: ReportRow;
  fingerprint: string;
}

/**
 * The committed secrets and secret-bearing files of a report, fingerprinted the way SARIF does
 * (rule, path, rule text and occurrence, never the line), so a baseline survives code moving.
 */
export function fingerprintSecrets(report: AuditReport): SecretResult[] {
  const occurrences = new Map<string, number>();
  return listSecretResults(report).map((row) => {
    const base = fingerprintResult(row.ruleId, row.path, row.text, 0);
    const occurrence = (occurrences.get(base) ?? 0) + 1;
    occurrences.set(base, occurrence);
    return { row, fingerprint: fingerprintResult(row.ruleId, row.path, row.text, occurrence) };
  });
}

/** Which secrets an `oy:allow` comment on their line or the `--baseline` accepts; they neither show as results nor gate. */
export function suppressSecrets(
  secrets: readonly SecretResult[],
  files: readonly Pick<ScannedFile, 'path' | 'allowedSecretLines'>[],
  baseline: ReadonlySet<string> | null,
): SuppressedResult[] {
  const allowed = new Set(
    files.flatMap((file) => (file.allowedSecretLines ?? []).map((line) => `${line}:${file.path}`)),
  );
  return secrets.flatMap(({ row, fingerprint }): SuppressedResult[] => {
    const place = { ruleId: row.ruleId, path: row.path, line: row.line };
    if (row.line !== null && allowed.has(`${row.line}:${row.path}`))
      return [{ ...place, by: 'allow-comment' }];
    if (baseline?.has(fingerprint)) return [{ ...place, by: 'baseline' }];
    return [];
  });
}
