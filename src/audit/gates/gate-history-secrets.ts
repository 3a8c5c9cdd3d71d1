import type { FoundHistorySecret } from '../history/scan-history.js';
import { SHORT_COMMIT_CHARS } from '../report/format-location.js';
import { historyRuleId, listHistorySecretRows } from '../report/list-report-rows.js';
import { fingerprintResult } from '../report/sarif/fingerprint-result.js';
import type { AuditReport, Finding, SuppressedResult } from '../types.js';
import type { GatedResult } from './evaluate-gates.js';

/** What the history scan's secrets do to the gates, the suppressed list and a written baseline. */
export interface HistoryGate {
  /** Accepted by the baseline or an `oy:allow` marker on the added line. */
  suppressed: SuppressedResult[];
  /** The rest: they gate at their severity, as a committed secret does. */
  gated: GatedResult[];
  /** For `--write-baseline`: every history secret no marker accepted. */
  baselineEntries: Pick<Finding, 'fingerprint' | 'category' | 'path' | 'title'>[];
}

/**
 * Splits the history secrets of a report by whether the baseline or an `oy:allow` marker on the
 * line accepts them (a marker only outside `--diff`). A fingerprint hashes the rule, path, commit and line (the SARIF
 * `oyFingerprint/v1` of the result): it names one place in the history, which never moves, and
 * nothing of the value, so a rotated secret can be baselined without writing it down.
 */
export function gateHistorySecrets(
  report: AuditReport,
  found: readonly FoundHistorySecret[],
  baseline: ReadonlySet<string> | null,
  /**
   * False with `--diff`: the commits scanned are the change's own, so an `oy:allow` marker on a line
   * they add is the change vouching for itself (a line the base already held is never "added").
   */
  honoursAllowMarkers: boolean,
): HistoryGate {
  const allowed = new Set(
    found
      .filter((secret) => honoursAllowMarkers && secret.isAllowed)
      .map((secret) => placeKey({ ...secret, ruleId: historyRuleId(secret.rule) })),
  );
  const gate: HistoryGate = { suppressed: [], gated: [], baselineEntries: [] };
  const occurrences = new Map<string, number>();
  for (const row of listHistorySecretRows(report)) {
    const base = fingerprintResult(row.ruleId, row.path, row.text, 0);
    const occurrence = (occurrences.get(base) ?? 0) + 1;
    occurrences.set(base, occurrence);
    const fingerprint = fingerprintResult(row.ruleId, row.path, row.text, occurrence);
    const commit = row.commit ?? '';
    const title = `${row.title}, commit ${commit.slice(0, SHORT_COMMIT_CHARS)}`;
    const place = { ruleId: row.ruleId, path: row.path, line: row.line, commit };
    if (allowed.has(placeKey(place))) {
      gate.suppressed.push({ ...place, by: 'allow-comment' });
      continue;
    }
    gate.baselineEntries.push({ fingerprint, category: row.category, path: row.path, title });
    if (baseline?.has(fingerprint)) gate.suppressed.push({ ...place, by: 'baseline' });
    else
      gate.gated.push({
        severity: row.severity,
        title,
        path: row.path,
        line: row.line,
        endLine: null,
      });
  }
  return gate;
}

function placeKey(place: { ruleId: string; commit: string; path: string; line: number | null }) {
  return `${place.ruleId}\0${place.commit}\0${place.path}\0${place.line ?? ''}`;
}
