import { compareSeverity, compareText } from '../report/order-by-severity.js';
import type { Finding } from '../types.js';

/**
 * A category as a comparison key: lowercase, runs of anything but letters and digits as one `-`,
 * so `SQL Injection`, `sql-injection` and ` sql_injection ` are one category.
 */
export function categoryKey(category: string): string {
  return category
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The last line of a finding's range, never before its first line. */
export function lastLine(finding: Finding): number {
  return Math.max(finding.line, finding.endLine);
}

/**
 * The report order: most severe first, then path (byte order), then line; the remaining fields
 * break ties, so findings that differ at all never compare equal and any input order sorts alike.
 */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    compareSeverity(a.severity, b.severity) ||
    compareText(a.path, b.path) ||
    a.line - b.line ||
    lastLine(a) - lastLine(b) ||
    compareContent(a, b)
  );
}

/** Which finding leads a merge: most severe, then most confident, then the report order. */
export function compareMergeRank(a: Finding, b: Finding): number {
  return (
    compareSeverity(a.severity, b.severity) || b.confidence - a.confidence || compareFindings(a, b)
  );
}

function compareContent(a: Finding, b: Finding): number {
  return (
    compareText(categoryKey(a.category), categoryKey(b.category)) ||
    compareText(a.category, b.category) ||
    compareText(a.title, b.title) ||
    b.confidence - a.confidence ||
    compareText(a.fingerprint, b.fingerprint) ||
    compareText(a.evidence, b.evidence) ||
    compareText(a.impact, b.impact) ||
    compareText(a.preconditions, b.preconditions) ||
    compareText(a.fix, b.fix)
  );
}
