import { writeFileAtomic } from '../shared/write-file-atomic.js';
import type { AuditOptions } from './audit-options.js';
import { buildOfflineReport } from './assemble/build-offline-report.js';
import { readGitState } from './assemble/read-git-state.js';
import { renderManifest } from './outputs/render-manifest.js';
import type { AuditPlan } from './plan/audit-plan.js';
import { prepareAudit } from './prepare-audit.js';
import { renderReport } from './report/render-report.js';
import type { AuditReport } from './types.js';

export type AuditOutcome =
  | { kind: 'plan'; plan: AuditPlan }
  | {
      kind: 'report';
      report: AuditReport;
      plan: AuditPlan;
      reportPath: string;
      manifestPath: string | null;
    };

/** The audit, as the pipeline reads: the deterministic stages, then the plan (`--dry-run`) or the report. */
export async function runAudit(options: AuditOptions): Promise<AuditOutcome> {
  const startedAt = Date.now();
  const progress = options.onProgress ?? (() => undefined);
  const prepared = await prepareAudit(options);
  if (options.isDryRun) return { kind: 'plan', plan: prepared.plan };

  progress({ stage: 'report', done: 0, total: 1 });
  const report = buildOfflineReport({
    command: options.command,
    generatedAt: (options.now ?? (() => new Date()))(),
    files: prepared.files,
    ledger: prepared.ledger,
    secretFiles: prepared.collected.secretFiles,
    chunks: prepared.chunkPlan.chunks.length,
    durationMs: Date.now() - startedAt,
    git: await readGitState(options.root, options.env),
    planHash: prepared.plan.planHash,
    tokenizer: options.encoding,
    chunkTokens: options.chunkTokens,
  });
  const { reportPath, manifestPath } = prepared.outputs;
  await writeFileAtomic(reportPath, renderReport(report, options.format));
  if (manifestPath !== null) await writeFileAtomic(manifestPath, renderManifest(report));
  progress({ stage: 'report', done: 1, total: 1 });
  return { kind: 'report', report, plan: prepared.plan, reportPath, manifestPath };
}
