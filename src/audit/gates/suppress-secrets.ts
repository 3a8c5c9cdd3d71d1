import { listSecretResults, type ReportRow } from '../report/list-report-rows.js';
import { fingerprintResult } from '../report/sarif/fingerprint-result.js';
import type { ScannedFile } from '../scan/scanned-file.js';
import type { AuditReport, RefusedSuppression, SuppressedResult } from '../types.js';
import type { Baselines } from './base-suppressions.js';

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

/** What suppresses: the trusted baseline, and the `oy:allow` lines; with what a `--diff` change adds to either. */
export interface Suppressions {
  baselines: Baselines;
  /** `<line>:<path>` of the allow lines the audited change adds (`findAddedAllowLines`); empty without `--diff`. */
  addedAllowLines: ReadonlySet<string>;
}

/**
 * Which secrets an `oy:allow` comment on their line or the baseline accepts (they neither show
 * as results nor gate), and which a suppression the audited change adds would have hidden: those
 * stay results, and the attempt is one more, at the hidden result's severity.
 */
export function suppressSecrets(
  secrets: readonly SecretResult[],
  files: readonly Pick<ScannedFile, 'path' | 'allowedSecretLines'>[],
  { baselines, addedAllowLines }: Suppressions,
): { suppressed: SuppressedResult[]; refused: RefusedSuppression[] } {
  const allowed = new Set(
    files.flatMap((file) =>
      (file.allowedSecretLines ?? []).map((allowedLine) => `${allowedLine.line}:${file.path}`),
    ),
  );
  const suppressed: SuppressedResult[] = [];
  const refused: RefusedSuppression[] = [];
  for (const { row, fingerprint } of secrets) {
    const place = { ruleId: row.ruleId, path: row.path, line: row.line };
    const lineKey = `${row.line ?? ''}:${row.path}`;
    const hasAllow = row.line !== null && allowed.has(lineKey);
    if (hasAllow && !addedAllowLines.has(lineKey))
      suppressed.push({ ...place, by: 'allow-comment' });
    else if (baselines.trusted?.has(fingerprint)) suppressed.push({ ...place, by: 'baseline' });
    else {
      const attempt = { ...place, severity: row.severity, title: row.title };
      if (hasAllow) refused.push({ ...attempt, by: 'allow-comment' });
      if (baselines.proposed.has(fingerprint)) refused.push({ ...attempt, by: 'baseline' });
    }
  }
  return { suppressed, refused };
}
