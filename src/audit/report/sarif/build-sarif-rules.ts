import type { Severity } from '../../types.js';
import { labelHintCategory } from '../hint-category-labels.js';
import type { ReportRow } from '../list-report-rows.js';
import { compareText, maxSeverity } from '../order-by-severity.js';
import type { SarifRule } from './sarif-log.js';
import { SECURITY_SEVERITY_SCORES, toRowLevel } from './security-severity.js';

/**
 * One rule per rule id among the rows, sorted by id. A rule's severity is the highest of its
 * results in this run: a model finding's rule is its category, and one category can hold findings
 * of several severities (each result still carries its own level).
 */
export function buildSarifRules(rows: readonly ReportRow[]): SarifRule[] {
  const severities = new Map<string, Severity>();
  const firstRows = new Map<string, ReportRow>();
  for (const row of rows) {
    const known = severities.get(row.ruleId);
    severities.set(
      row.ruleId,
      known === undefined ? row.severity : maxSeverity(known, row.severity),
    );
    if (!firstRows.has(row.ruleId)) firstRows.set(row.ruleId, row);
  }
  return [...firstRows.values()]
    .sort((a, b) => compareText(a.ruleId, b.ruleId))
    .map((row) => {
      const severity = severities.get(row.ruleId) ?? row.severity;
      const { short, full, tags } = describeRule(row);
      return {
        id: row.ruleId,
        shortDescription: { text: short },
        fullDescription: { text: full },
        defaultConfiguration: { level: toRowLevel({ kind: row.kind, severity }) },
        properties: {
          'security-severity': SECURITY_SEVERITY_SCORES[severity],
          tags: [...new Set(['security', ...tags])],
        },
      };
    });
}

function describeRule(row: ReportRow): { short: string; full: string; tags: string[] } {
  switch (row.kind) {
    case 'finding':
      return {
        short: `Model review finding: ${row.category}`,
        full: `Findings of the category "${row.category}" from oy's model review, verified against the source: the cited evidence was found at the cited lines.`,
        tags: ['oy-finding', row.ruleId.slice('oy/finding/'.length)],
      };
    case 'secret': {
      const rule = row.ruleId.slice('oy/secret/'.length);
      return {
        short: `Committed secret (${rule})`,
        full: `A value matching oy's ${rule} redaction rule is in a file git tracks. oy never reports the value. Rotate the secret, then remove it from the repository and its history.`,
        tags: ['secret', 'oy-secret'],
      };
    }
    case 'history-secret': {
      const rule = row.ruleId.slice('oy/history/'.length);
      return rule === 'secret-file'
        ? {
            short: 'Secret-bearing file in the git history',
            full: 'A commit added a file that holds secrets by its kind (a .env file, a private key, stored credentials). It stays in the history for anyone who clones the repository, even after a later commit removed it. Rotate what it held; remove it from the history if it must go.',
            tags: ['secret', 'oy-secret', 'oy-history'],
          }
        : {
            short: `Secret in the git history (${rule.slice('secret/'.length)})`,
            full: `A commit added a value matching oy's ${rule.slice('secret/'.length)} redaction rule (the result's commit property names it; the location is as of that commit). It stays in the history for anyone who clones the repository, even after a later commit removed it. oy never reports the value. Rotate the secret.`,
            tags: ['secret', 'oy-secret', 'oy-history'],
          };
    }
    case 'secret-file':
      return {
        short: 'Secret-bearing file',
        full: 'A file that holds secrets by its kind (a .env file, a private key, stored credentials, Terraform state) is in the workspace; oy never reads it. A committed one is high severity; one git does not track is information.',
        tags: ['secret', 'oy-secret'],
      };
    case 'config-change':
      return {
        short: "Change to the audit's own configuration",
        full: 'The audited change (--diff) adds, edits or deletes .oyignore or .oy/config.json, which decide what oy reviews: a change can narrow its own review. Check that the edit is intended.',
        tags: ['oy-repo-config'],
      };
    case 'unreviewed-change':
      return {
        short: 'Changed file the review skips',
        full: 'The audited change (--diff) adds or edits a file the model review skips for a reason the repository itself caused: a generated marker, a minified or lockfile name, a default folder such as vendor/ or dist/, an encoding, binary content under a text name, a size, a hard link, its own .oyignore or project file. Its secrets were still scanned. Check the change by hand, or pass --exclude to accept the skip.',
        tags: ['oy-unreviewed'],
      };
    case 'refused-suppression':
      return {
        short: 'Suppression added by the audited change',
        full: 'The audited change (--diff) adds a baseline entry or an oy:allow comment that would hide a result. A change cannot vouch for itself: the suppression is refused, the result stays, and this is reported at its severity. Update the baseline on the default branch instead.',
        tags: ['oy-suppression'],
      };
    case 'hint':
      return {
        short: row.title,
        full: `${labelHintCategory(row.category)}: ${withFullStop(row.title)} A deterministic pattern match from oy's index: a place worth a reviewer's attention, which may be a false positive.`,
        tags: ['oy-hint', row.category],
      };
  }
}

function withFullStop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
