import type { AuditReport } from '../types.js';

/** The coverage ledger file (`--manifest`): totals, then every candidate with its status. */
export function renderManifest(report: AuditReport): string {
  const { ledger, ...totals } = report.coverage;
  const manifest = {
    schemaVersion: 1,
    tool: report.tool,
    generatedAt: report.generatedAt,
    totals,
    files: ledger,
  };
  return JSON.stringify(manifest, null, 2) + '\n';
}
