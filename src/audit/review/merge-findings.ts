import type { Finding } from '../types.js';
import { compareMergeRank, lastLine } from './compare-findings.js';

/** Between two distinct fixes of a merged finding. */
const FIX_SEPARATOR = '\n';

/**
 * One finding from several that describe the same problem in one file: the leader's title,
 * category, impact and preconditions (most severe, then most confident); the highest severity and
 * confidence; the union of the line ranges; the longest evidence with its own fingerprint (the
 * fingerprint is computed from the evidence, so they stay a pair); the distinct fixes, leader's first.
 * The result does not depend on the order of `group`.
 */
export function mergeFindings(group: readonly Finding[]): Finding {
  const ranked = [...group].sort(compareMergeRank);
  const leader = ranked[0];
  if (leader === undefined) throw new Error('mergeFindings needs at least one finding');
  if (ranked.length === 1) return leader;
  const evidenceDonor = ranked.reduce((best, finding) =>
    finding.evidence.length > best.evidence.length ? finding : best,
  );
  return {
    ...leader,
    confidence: Math.max(...ranked.map((finding) => finding.confidence)),
    line: Math.min(...ranked.map((finding) => finding.line)),
    endLine: Math.max(...ranked.map(lastLine)),
    evidence: evidenceDonor.evidence,
    fingerprint: evidenceDonor.fingerprint,
    fix: joinDistinctFixes(ranked),
  };
}

// Fixes that differ only in spacing are one fix; empty ones add nothing.
function joinDistinctFixes(ranked: readonly Finding[]): string {
  const seen = new Set<string>();
  const fixes: string[] = [];
  for (const finding of ranked) {
    const fix = finding.fix.trim();
    const key = fix.replace(/\s+/g, ' ');
    if (fix === '' || seen.has(key)) continue;
    seen.add(key);
    fixes.push(fix);
  }
  return fixes.join(FIX_SEPARATOR);
}
