import type { ReportFormat } from '../../config/config-schema.js';
import type { ConfiguredModels } from '../../providers/model-facts/configured-models.js';
import { withConfiguredFacts } from '../../providers/model-facts/configured-models.js';
import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import { parseModelId } from '../../providers/model-id/parse-model-id.js';
import { UsageError } from '../../shared/errors.js';
import { buildCoverage } from '../assemble/build-audit-report.js';
import { CacheSeal } from '../cache-seal/cache-seal.js';
import { applyBaseline } from '../gates/baseline.js';
import { loadBaselines } from '../gates/base-suppressions.js';
import { listUnreviewedChanges } from '../gates/skip-reasons.js';
import type { GateResult } from '../gates/evaluate-gates.js';
import { gateReport, settleSuppressions } from '../gates/settle-report.js';
import { sealOutput } from '../outputs/output-seal.js';
import { refuseForeignOutputs } from '../outputs/refuse-foreign-outputs.js';
import { closeAuditOutputs, resolveAuditOutputs } from '../outputs/resolve-audit-outputs.js';
import { renderReport } from '../report/render-report.js';
import { dedupeFindings } from '../review/dedupe-findings.js';
import { MapCache } from '../review/map-cache.js';
import { reduceReview } from '../review/reduce-review.js';
import { defaultAuditDeps, markFailed, type AuditDeps } from '../run-audit.js';
import type { AuditReport, Severity, SummaryMissing } from '../types.js';
import { checkShardReports, type ShardInput } from './check-shard-reports.js';
import { mergeShardReviews } from './merge-shard-reviews.js';
import { readShardReport } from './read-shard-report.js';

/** Everything `oy report merge` needs, already validated by the command layer. */
export interface ReportMergeOptions {
  /** Absolute real path of the workspace: `--out` must lie inside it. */
  root: string;
  /** The shard reports, as given (relative to the current folder). */
  files: string[];
  format: ReportFormat;
  /** `--out` as given, `-` for stdout, or null for the format's default name. */
  out: string | null;
  isForced: boolean;
  sealKey?: Uint8Array;
  /** The review cache the reduce answer is looked up in and kept in; null with `--no-cache`. */
  cacheDir: string | null;
  failOn: Severity | null;
  minCoverage: number | null;
  allowPartial: boolean;
  baselinePath: string | null;
  /** The configured model (null with `--offline` or none): the reduce runs only with one. */
  model: string | null;
  models?: ConfiguredModels;
  env: Readonly<Record<string, string | undefined>>;
  command: string;
  onNotice?: (text: string) => void;
}

export interface ReportMergeOutcome {
  report: AuditReport;
  /** null for `--out -`: `reportText` is the report. */
  reportPath: string | null;
  reportText: string;
  gates: GateResult;
  /** Calls to the model over every shard and the reduce. */
  modelCalls: number;
  suppressedByBaseline: number;
  suppressedByComment: number;
}

/**
 * Shard reports back into the report one unsharded run writes: checked to be the N shares of one
 * audit, their findings de-duplicated and reduced as the audit does, then `--baseline`, the
 * suppressions and the gates, and the output written through the same checks as `oy audit --out`.
 */
export async function runReportMerge(
  options: ReportMergeOptions,
  overrides: Partial<AuditDeps> = {},
): Promise<ReportMergeOutcome> {
  const deps = { ...defaultAuditDeps, ...overrides };
  const startedAt = deps.now().getTime();
  const outputs = await resolveAuditOutputs(options.root, options.format, options.out, null);
  try {
    await refuseForeignOutputs(outputs, options.isForced);
    const inputs: ShardInput[] = [];
    for (const file of options.files) inputs.push({ file, shard: await readShardReport(file) });
    const shards = checkShardReports(inputs);
    const base = (shards[0] as ShardInput).shard;
    // With --diff, a baseline kept in the repository is read as <ref> has it, as the audit reads it.
    const { diffRef } = base.identity.options;
    const { diffRefCommit } = base.identity;
    const baselines = await loadBaselines({
      root: options.root,
      baselinePath: options.baselinePath,
      diff:
        diffRef === null || diffRefCommit === null
          ? null
          : { ref: diffRef, refCommit: diffRefCommit },
      env: options.env,
    });

    const merged = mergeShardReviews(shards);
    let findings = merged === null ? [] : dedupeFindings(merged.verified);
    let summary: string | null = null;
    let summaryMissing: SummaryMissing | null = null;
    let totals = merged?.totals ?? null;
    let calls = merged?.calls ?? 0;
    const model = base.identity.model;
    if (merged !== null && model !== null) {
      const ref = reduceModel(options, model);
      if (ref === null)
        options.onNotice?.(
          'no model is configured, so the findings were not reduced (no summary, deterministic order)',
        );
      const reduce =
        ref === null
          ? null
          : await reduceReview(findings, {
              client: await deps.createClient(ref, options.env),
              chunkCount: base.chunks.length,
              isStoppedByCost: merged.isStoppedByCost,
              totals: merged.totals,
              price: modelFactsFor(ref).price,
              cache: MapCache.open(options.cacheDir, {
                seal: CacheSeal.derive(options.sealKey, 'map-cache'),
                ...(options.onNotice ? { onNotice: options.onNotice } : {}),
              }),
              promptVersionHash: base.identity.promptVersionHash ?? '',
            });
      findings = reduce?.reduced.findings ?? [...findings];
      summary = reduce?.reduced.summary ?? null;
      summaryMissing = reduce?.summaryMissing ?? null;
      totals = reduce?.totals ?? merged.totals;
      calls += reduce?.calls ?? 0;
    }
    const kept =
      merged !== null && baselines.trusted !== null
        ? applyBaseline(findings, baselines.trusted)
        : null;
    const ledger = merged === null ? base.ledger : markFailed(base.ledger, merged.failedFiles);
    const report: AuditReport = {
      ...base.report,
      command: options.command,
      generatedAt: deps.now().toISOString(),
      summary,
      ...(summaryMissing ? { summaryMissing } : {}),
      findings: kept ? kept.kept : findings,
      unverified: merged?.unverified ?? [],
      suppressed: [],
      refusedSuppressions: [],
      unreviewedChanges: diffRef === null ? [] : listUnreviewedChanges(ledger),
      coverage: buildCoverage({
        ledger,
        chunks: base.report.coverage.chunks,
        scope: base.report.coverage.scope,
        chunksSkippedByBudget: base.report.coverage.chunksSkippedByBudget,
        durationMs: deps.now().getTime() - startedAt,
        ...(merged === null || totals === null || model === null
          ? {}
          : {
              review: {
                model,
                findings: [],
                unverified: [],
                summary,
                summaryMissing,
                tokensIn: totals.inputTokens + totals.cacheReadTokens + totals.cacheWriteTokens,
                tokensOut: totals.outputTokens,
                costUsd: totals.costUsd,
                cacheHits: merged.cacheHits,
                promptVersionHash: base.identity.promptVersionHash ?? '',
              },
            }),
      }),
    };
    const { gatedSecrets } = settleSuppressions(report, {
      files: base.allowedSecretLines,
      historyFound: base.historyAllowed.map((secret) => ({ ...secret, isAllowed: true })),
      baselines,
      addedAllowLines: new Set(base.addedAllowLines),
      isDiff: diffRef !== null,
      suppressedFindings: kept?.suppressed ?? [],
    });
    const reportText = sealOutput(
      renderReport(report, options.format),
      options.format,
      options.sealKey,
    );
    await outputs.report?.write(reportText);
    return {
      report,
      reportPath: outputs.reportPath,
      reportText,
      gates: gateReport(report, gatedSecrets, options),
      modelCalls: calls,
      suppressedByBaseline: report.suppressed.filter((item) => item.by === 'baseline').length,
      suppressedByComment: report.suppressed.filter((item) => item.by === 'allow-comment').length,
    };
  } finally {
    await closeAuditOutputs(outputs);
  }
}

/** The model the reduce runs on: the shards' own, when one is configured; another is refused. */
function reduceModel(options: ReportMergeOptions, shardModel: string) {
  if (options.model === null) return null;
  const ref = withConfiguredFacts(parseModelId(options.model), options.models);
  if (ref.id !== shardModel)
    throw new UsageError(
      `the configured model ${ref.id} is not the model the shards were reviewed with, ${shardModel}`,
      { hint: `merge with --model ${shardModel}, or with --offline to skip the reduce call` },
    );
  return ref;
}
