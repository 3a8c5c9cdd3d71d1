import type { Finding } from '../types.js';
import { categoryKey, compareFindings, lastLine } from './compare-findings.js';
import { mergeFindings } from './merge-findings.js';

/**
 * Deterministic de-duplication before the reduce call: findings in the same file, of the same
 * category (case and punctuation aside) and with overlapping line ranges become one
 * (`mergeFindings`). Overlap is transitive (1-5, 4-8 and 7-10 are one finding); ranges that only
 * touch (1-5 and 6-9) stay apart. The result is in report order (`compareFindings`), and the same
 * findings in any order give the same result.
 */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.path}\0${categoryKey(finding.category)}`;
    const group = groups.get(key);
    if (group) group.push(finding);
    else groups.set(key, [finding]);
  }
  const merged: Finding[] = [];
  for (const group of groups.values()) merged.push(...mergeOverlapping(group));
  return merged.sort(compareFindings);
}

// A sweep by first line: a finding joins the run while it starts at or before the run's last line.
function mergeOverlapping(group: Finding[]): Finding[] {
  const sorted = [...group].sort((a, b) => a.line - b.line || compareFindings(a, b));
  const result: Finding[] = [];
  let run: Finding[] = [];
  let runEnd = -Infinity;
  for (const finding of sorted) {
    if (run.length > 0 && finding.line > runEnd) {
      result.push(mergeFindings(run));
      run = [];
      runEnd = -Infinity;
    }
    run.push(finding);
    runEnd = Math.max(runEnd, lastLine(finding));
  }
  if (run.length > 0) result.push(mergeFindings(run));
  return result;
}
