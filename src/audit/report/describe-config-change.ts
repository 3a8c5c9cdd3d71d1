import type { ConfigChange, Severity } from '../types.js';

/** The SARIF rule id and report rule of an edit to the audit's own configuration. */
export const CONFIG_CHANGE_RULE_ID = 'oy/repo-config/changed';
/** Medium: the edit may narrow its own review, but is not a vulnerability by itself. */
export const CONFIG_CHANGE_SEVERITY: Severity = 'medium';

/** One line for the report, SARIF and the gate: which file, and why it matters. */
export function describeConfigChange(change: ConfigChange): string {
  return `The audited change edits the audit's own configuration (${change.path})`;
}
