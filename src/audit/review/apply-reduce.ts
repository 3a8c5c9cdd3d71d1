import type { Finding } from '../types.js';
import { compareFindings } from './compare-findings.js';
import { mergeFindings } from './merge-findings.js';
import type { ReduceAnswer } from './parse-reduce-answer.js';
import { reduceFindingIds } from './reduce-finding-ids.js';

export interface ReducedFindings {
  findings: Finding[];
  summary: string | null;
  /** False when the answer was unusable and the deterministic order stands. */
  isModelOrder: boolean;
}

/**
 * Applies the reduce answer to the findings the prompt was rendered from (same array, same ids):
 * merges each group per file (`mergeFindings`; members in another file are merged among
 * themselves, never into a different location), then puts the named findings first in the
 * answer's order and the rest after them in report order. A null answer gives the report order
 * and no summary. No finding is ever lost: each ends in exactly one output finding.
 */
export function applyReduce(
  findings: readonly Finding[],
  answer: ReduceAnswer | null,
): ReducedFindings {
  if (answer === null) {
    return { findings: [...findings].sort(compareFindings), summary: null, isModelOrder: false };
  }
  const ids = reduceFindingIds(findings);
  const byId = new Map(ids.map((id, index) => [id, findings[index] as Finding]));
  const rank = new Map(answer.order.map((id, index) => [id, index]));
  const units = groupUnits(ids, answer.merge, byId);
  const ranked = units.map((members) => ({
    finding: mergeFindings(members.map((id) => byId.get(id) as Finding)),
    rank: Math.min(...members.map((id) => rank.get(id) ?? Infinity)),
  }));
  ranked.sort((a, b) => a.rank - b.rank || compareFindings(a.finding, b.finding));
  return {
    findings: ranked.map((unit) => unit.finding),
    summary: answer.summary,
    isModelOrder: true,
  };
}

// Every id in exactly one unit: a merge group split by path, or the id alone.
function groupUnits(
  ids: readonly string[],
  merge: readonly string[][],
  byId: ReadonlyMap<string, Finding>,
): string[][] {
  const units: string[][] = [];
  const grouped = new Set<string>();
  for (const group of merge) {
    const byPath = new Map<string, string[]>();
    for (const id of group) {
      const finding = byId.get(id);
      if (finding === undefined || grouped.has(id)) continue;
      grouped.add(id);
      const unit = byPath.get(finding.path);
      if (unit) unit.push(id);
      else byPath.set(finding.path, [id]);
    }
    units.push(...byPath.values());
  }
  for (const id of ids) if (!grouped.has(id)) units.push([id]);
  return units;
}
