import type { RefusedSuppression, Severity, UnreviewedChange } from '../types.js';

/** The SARIF rule id of a changed file the review skipped for a reason the repository caused. */
export const UNREVIEWED_CHANGE_RULE_ID = 'oy/unreviewed/changed';
/** Medium, as an edit to the audit's own configuration: it narrows the review, and is no vulnerability by itself. */
export const UNREVIEWED_CHANGE_SEVERITY: Severity = 'medium';
/** The SARIF rule id of a suppression the audited change adds, refused. */
export const REFUSED_SUPPRESSION_RULE_ID = 'oy/suppression/added';

/** One line for the report, SARIF and the gate: which file, and why the review skipped it. */
export function describeUnreviewedChange(change: UnreviewedChange): string {
  const why = change.detail === undefined ? change.reason : `${change.reason}: ${change.detail}`;
  return `The audited change adds or edits a file the review skips (${why})`;
}

/** One line for the report, SARIF and the gate: what the change added, and what it would have hidden. */
export function describeRefusedSuppression(attempt: RefusedSuppression): string {
  const how = attempt.by === 'baseline' ? 'a baseline entry' : 'an `oy:allow` comment';
  return `The audited change adds ${how} that would hide: ${attempt.title}`;
}
