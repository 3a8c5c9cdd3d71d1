import { createModelClient } from '../providers/create-model-client.js';
import { createBatchClient } from '../providers/create-batch-client.js';
import type { BatchClient } from '../providers/batch/batch-client.js';
import { refuseBatchWithout } from '../providers/batch/batch-support.js';
import { batchPriceFor } from '../providers/pricing/batch-price.js';
import type { ProviderEnvironment } from '../providers/provider-environment.js';
import { withConfiguredFacts } from '../providers/model-facts/configured-models.js';
import { fitPromptTokens } from '../providers/model-facts/fit-prompt-tokens.js';
import { modelFactsFor } from '../providers/model-facts/model-facts-for.js';
import type { ModelClient, ModelRef } from '../providers/types.js';
import { MAP_MAX_TOKENS } from './review/review-chunk.js';
import { parseModelId } from '../providers/model-id/parse-model-id.js';
import { OyError, UsageError, EXIT } from '../shared/errors.js';
import { comparePaths } from '../shared/files/compare-paths.js';
import type { AuditOptions } from './audit-options.js';
import { buildAuditReport, type ReviewSummary } from './assemble/build-audit-report.js';
import { readGitState } from './assemble/read-git-state.js';
import { applyBaseline, renderBaseline } from './gates/baseline.js';
import { findAddedAllowLines, loadBaselines } from './gates/base-suppressions.js';
import type { GateResult } from './gates/evaluate-gates.js';
import { gateReport, settleSuppressions } from './gates/settle-report.js';
import { scanAuditHistory } from './history/scan-audit-history.js';
import { orderChunksByRisk } from './chunk/order-chunks-by-risk.js';
import { buildShardReport, renderShardReport } from './shard/build-shard-report.js';
import { shardOfChunk } from './shard/assign-shard.js';
import { refuseForeignFile } from './outputs/refuse-foreign-outputs.js';
import { renderManifest } from './outputs/render-manifest.js';
import { sealOutput, type SealShape } from './outputs/output-seal.js';
import { OutputTarget } from '../safety/paths/output-target.js';
import { resolveOutputPath } from '../safety/paths/resolve-output-path.js';
import type { AuditPlan } from './plan/audit-plan.js';
import { describeNarrowing } from './plan/describe-narrowing.js';
import { estimateReviewCost, type CachedWork } from './plan/estimate-review-cost.js';
import { prepareAudit } from './prepare-audit.js';
import { renderReport } from './report/render-report.js';
import { findCachedReview, runModelReview } from './review/run-model-review.js';
import type { AuditReport, LedgerEntry } from './types.js';

export type AuditOutcome =
  | { kind: 'plan'; plan: AuditPlan }
  | {
      kind: 'report';
      report: AuditReport;
      plan: AuditPlan;
      /** null when the report was not written to a file (`--out -`): `reportText` is the report. */
      reportPath: string | null;
      reportText: string;
      manifestPath: string | null;
      gates: GateResult;
      /** Calls this run made to the model; 0 offline or when every chunk came from the cache. */
      modelCalls: number;
      suppressedByBaseline: number;
      suppressedByComment: number;
    };

/** What the audit reaches outside itself for, injectable so the review can be tested without a provider. */
export interface AuditDeps {
  /** The model client for the review (the real one imports the provider's SDK only now). */
  createClient(ref: ModelRef, env: ProviderEnvironment): Promise<ModelClient>;
  /** The batch client for `--batch` (Anthropic's Message Batches). */
  createBatchClient(ref: ModelRef, env: ProviderEnvironment): Promise<BatchClient>;
  /** The wall clock: the report's date and the run's duration. */
  now(): Date;
}

export const defaultAuditDeps: AuditDeps = {
  createClient: (ref, env) => createModelClient(ref, env),
  createBatchClient: (ref, env) => createBatchClient(ref, env),
  now: () => new Date(),
};

/**
 * The audit, as the pipeline reads: the deterministic stages, then the plan, or the review and the
 * report. Every output's folder is opened before any work and the files are written through it.
 */
export async function runAudit(
  options: AuditOptions,
  overrides: Partial<AuditDeps> = {},
): Promise<AuditOutcome> {
  const baseline = await openBaselineTarget(options);
  const held: OutputTarget[] = baseline === null ? [] : [baseline];
  try {
    return await auditWith(options, { ...defaultAuditDeps, ...overrides }, baseline, held);
  } finally {
    await Promise.all(held.map((target) => target.close()));
  }
}

/** `--write-baseline`'s file, its folder held open, refused when it holds someone else's work. */
async function openBaselineTarget(options: AuditOptions): Promise<OutputTarget | null> {
  if (options.writeBaselinePath === null) return null;
  const file = resolveOutputPath(options.root, options.writeBaselinePath, '--write-baseline', {
    allowOyDir: true,
    example: '.oy/baseline.json',
  });
  const target = await OutputTarget.open(options.root, file, '--write-baseline');
  try {
    if (!options.isForced) await refuseForeignFile('--write-baseline', target);
    return target;
  } catch (error) {
    await target.close();
    throw error;
  }
}

async function auditWith(
  options: AuditOptions,
  deps: AuditDeps,
  writeBaseline: OutputTarget | null,
  /** Targets to close when the run ends: the report's and ledger's join once prepared. */
  held: OutputTarget[],
): Promise<AuditOutcome> {
  const startedAt = deps.now().getTime();
  const progress = options.onProgress ?? (() => undefined);
  const ref =
    options.model === null
      ? null
      : withConfiguredFacts(parseModelId(options.model), options.models);
  const batch = options.batch ?? null;
  if (batch !== null) {
    if (ref === null)
      throw new UsageError('--batch needs a model: it sends the review as one batch', {
        hint: 'configure a model (--model anthropic::claude-sonnet-4-5), or drop --batch',
      });
    refuseBatchWithout(ref);
  }
  if (
    ref !== null &&
    options.maxCostUsd !== null &&
    modelFactsFor(ref).price === undefined &&
    !options.isDryRun
  ) {
    throw new UsageError(`--max-cost cannot be enforced: ${ref.id} has no known price`, {
      hint: `give its price in the user config ("models": {"${ref.id}": {"price": {"input": <usd>, "output": <usd>}}}, USD per million tokens), use a model with a known price (see \`oy model\`), or drop --max-cost`,
    });
  }
  const prepared = await prepareAudit({
    ...options,
    chunkTokens: fitChunkTokens(options.chunkTokens, ref),
  });
  for (const target of [prepared.outputs.report, prepared.outputs.manifest])
    if (target !== null) held.push(target);
  refuseEmptySelection(prepared.files.length, options);
  // Read now, before any model call, so a bad --baseline fails fast; with --diff, as of <ref>.
  const diff = prepared.collected.diff;
  const baselines = await loadBaselines({
    root: options.root,
    baselinePath: options.baselinePath,
    diff:
      diff === null || options.diffRef === null
        ? null
        : { ref: options.diffRef, refCommit: diff.refCommit },
    env: options.env,
  });
  // Chunks (and a reduce) the cache holds cost nothing: found with the review's own keys, when
  // the estimate is shown or enforced (it reads and redacts every chunk once more).
  const cached =
    ref === null || (!options.isDryRun && options.maxCostUsd === null)
      ? null
      : await findCachedReview(prepared, {
          ref,
          cacheDir: options.cacheDir,
          stateKey: options.sealKey,
          maxFileBytes: options.maxFileBytes,
        });
  const plan =
    ref === null
      ? prepared.plan
      : {
          ...prepared.plan,
          estimate: estimateFor(prepared.plan, ref, batch !== null, cached ?? undefined),
        };
  if (options.isDryRun) return { kind: 'plan', plan };
  // Local and deterministic, so it runs before any money is spent on a review.
  const history = await scanAuditHistory(options);
  const shard = options.shard ?? null;
  const chunkIds = orderChunksByRisk(prepared.chunkPlan.chunks).map((chunk) => chunk.id);
  const reviewedIds =
    shard === null
      ? chunkIds
      : chunkIds.filter((id) => shardOfChunk(id, shard.count) === shard.index);

  let review: Awaited<ReturnType<typeof runModelReview>> | null = null;
  if (ref !== null) {
    if (plan.exceedsMaxChunks) {
      const { where, hint } = describeNarrowing(plan);
      throw new UsageError(
        `this run needs ${plan.chunks.length} chunks, more than --max-chunks ${plan.maxChunks}${where === '' ? '' : `: ${where}`}`,
        { hint },
      );
    }
    const estimate = plan.estimate;
    if (
      options.maxCostUsd !== null &&
      estimate?.costUsd != null &&
      estimate.costUsd > options.maxCostUsd
    ) {
      throw new OyError(
        `the estimated cost $${estimate.costUsd.toFixed(2)} is above --max-cost ${options.maxCostUsd}`,
        EXIT.usage,
        { hint: 'raise --max-cost, narrow the run, or see the estimate with --dry-run' },
      );
    }
    const client = await deps.createClient(ref, options.env);
    progress({ stage: 'review', done: 0, total: reviewedIds.length });
    review = await runModelReview(prepared, {
      ...(shard
        ? { reviewsChunk: (chunk) => shardOfChunk(chunk.id, shard.count) === shard.index }
        : {}),
      client,
      cacheDir: options.cacheDir,
      stateKey: options.sealKey,
      concurrency: options.concurrency,
      maxCostUsd: options.maxCostUsd,
      focus: options.focus,
      maxFileBytes: options.maxFileBytes,
      ...(batch === null
        ? {}
        : {
            batch: {
              client: await deps.createBatchClient(ref, options.env),
              stateDir: options.stateDir ?? null,
              workspace: options.root,
              timeoutMs: batch.timeoutMs,
              pollIntervalMs: batch.pollIntervalMs,
              ...(options.onBatchEvent ? { onEvent: options.onBatchEvent } : {}),
            },
          }),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
      onProgress: (done, total, totals) =>
        progress({
          stage: 'review',
          done,
          total,
          message: `${totals.inputTokens + totals.cacheReadTokens + totals.cacheWriteTokens} tokens in, ${totals.outputTokens} out${totals.costUsd === null ? '' : `, $${totals.costUsd.toFixed(4)}`}`,
        }),
    });
  }

  progress({ stage: 'report', done: 0, total: 1 });
  // Files the model did not review still have their committed secrets reported and gated.
  const filesWithSecrets = [...prepared.files, ...prepared.secretsOnlyFiles].sort((a, b) =>
    comparePaths(a.path, b.path),
  );
  const kept =
    review && baselines.trusted ? applyBaseline(review.findings, baselines.trusted) : null;
  const reviewSummary: ReviewSummary | undefined =
    review === null || ref === null
      ? undefined
      : {
          model: ref.id,
          findings: kept ? kept.kept : review.findings,
          unverified: review.unverified.map(({ reason, ...finding }) => ({
            ...finding,
            unverifiedReason: reason,
          })),
          summary: review.summary,
          summaryMissing: review.summaryMissing,
          tokensIn:
            review.totals.inputTokens +
            review.totals.cacheReadTokens +
            review.totals.cacheWriteTokens,
          tokensOut: review.totals.outputTokens,
          costUsd: review.totals.costUsd,
          cacheHits: review.cacheHits,
          promptVersionHash: review.promptVersionHash,
        };
  const ledger = review ? markFailed(prepared.ledger, review.failedFiles) : prepared.ledger;
  const report = buildAuditReport({
    command: options.command,
    generatedAt: deps.now(),
    files: filesWithSecrets,
    ledger,
    secretFiles: prepared.collected.secretFiles,
    configChanges: prepared.collected.configChanges,
    isDiff: diff !== null,
    chunks: prepared.chunkPlan.chunks.length,
    scope: plan.scope,
    chunksSkippedByBudget: prepared.droppedChunks.length,
    isOfflineByChoice: options.isOfflineByChoice === true,
    durationMs: deps.now().getTime() - startedAt,
    git: await readGitState(options.root, options.env),
    planHash: plan.planHash,
    tokenizer: options.encoding,
    chunkTokens: options.chunkTokens,
    ...(reviewSummary ? { review: reviewSummary } : {}),
    ...(history ? { history: history.report } : {}),
  });
  const addedAllowLines =
    diff === null
      ? new Set<string>()
      : await findAddedAllowLines({
          root: options.root,
          base: diff.base,
          files: filesWithSecrets,
          env: options.env,
        });
  const { secretResults, historyGate, gatedSecrets } = settleSuppressions(report, {
    files: filesWithSecrets,
    historyFound: history?.found ?? [],
    baselines,
    addedAllowLines,
    isDiff: diff !== null,
    suppressedFindings: kept?.suppressed ?? [],
  });
  const { reportPath, manifestPath } = prepared.outputs;
  // Sealed, so later runs of this user know these files as oy's own and leave them out.
  const seal = (text: string, shape: SealShape) => sealOutput(text, shape, options.sealKey);
  const reportText =
    shard === null
      ? seal(renderReport(report, options.format), SEAL_SHAPES[options.format])
      : seal(
          renderShardReport(
            buildShardReport({
              spec: shard,
              options,
              report,
              chunkIds,
              reviewedChunkIds: reviewedIds,
              ledger: prepared.ledger,
              files: filesWithSecrets,
              addedAllowLines,
              diffRefCommit: diff === null || options.diffRef === null ? null : diff.refCommit,
              historyFound: history?.found ?? [],
              review,
            }),
          ),
          'json',
        );
  await prepared.outputs.report?.write(reportText);
  await prepared.outputs.manifest?.write(seal(renderManifest(report), 'json'));
  if (writeBaseline !== null)
    await writeBaseline.write(
      seal(
        renderBaseline(
          [
            ...(review?.findings ?? []),
            ...secretResults
              .filter(
                ({ row }) =>
                  !report.suppressed.some(
                    (item) =>
                      item.by === 'allow-comment' &&
                      item.path === row.path &&
                      item.line === row.line,
                  ),
              )
              .map(({ row, fingerprint }) => ({
                fingerprint,
                category: row.category,
                path: row.path,
                title: row.title,
              })),
            ...historyGate.baselineEntries,
          ],
          report.generatedAt,
        ),
        'json',
      ),
    );
  progress({ stage: 'report', done: 1, total: 1 });
  // A shard's failures are the merge's to judge, with every shard's coverage in hand.
  const gates = gateReport(report, gatedSecrets, {
    failOn: options.failOn,
    minCoverage: options.minCoverage,
    allowPartial: options.allowPartial || shard !== null,
  });
  return {
    kind: 'report',
    report,
    plan,
    reportPath,
    reportText,
    manifestPath,
    gates,
    modelCalls: review?.calls ?? 0,
    suppressedByBaseline: report.suppressed.filter((item) => item.by === 'baseline').length,
    suppressedByComment: report.suppressed.filter((item) => item.by === 'allow-comment').length,
  };
}

/**
 * A run your own `--include`/`--exclude` emptied is a typo, not a clean result: say which.
 * (An empty repository, a `.oyignore` that leaves out everything, or a `--diff` touching no
 * auditable file still give a report: the coverage gate speaks for the last two.)
 */
function refuseEmptySelection(fileCount: number, options: AuditOptions): void {
  if (fileCount > 0 || options.diffRef !== null) return;
  const narrowing = [
    ...options.include.map((glob) => `--include '${glob}'`),
    ...options.exclude.map((glob) => `--exclude '${glob}'`),
  ];
  if (narrowing.length === 0) return;
  throw new UsageError(`nothing to audit: ${narrowing.join(', ')} left no file to audit`, {
    hint: 'check the globs against the paths (relative to the workspace root), or see what is selected with --dry-run --manifest <file>',
  });
}

/** Files of chunks the model could not review are `failed(<kind>)`, not `reviewed`. */
export function markFailed(
  ledger: LedgerEntry[],
  failed: ReadonlyMap<string, LedgerEntry>,
): LedgerEntry[] {
  return ledger.map((entry) =>
    entry.status === 'reviewed' ? (failed.get(entry.path) ?? entry) : entry,
  );
}

const SEAL_SHAPES: Readonly<Record<AuditOptions['format'], SealShape>> = {
  markdown: 'markdown',
  json: 'json',
  sarif: 'sarif',
};

/** The review's estimate: with `--batch`, the map calls at the batch price and the reduce call online. */
function estimateFor(plan: AuditPlan, ref: ModelRef, isBatch: boolean, cached?: CachedWork) {
  const facts = modelFactsFor(ref);
  const map = isBatch ? batchPriceFor(facts) : facts.price;
  return estimateReviewCost(plan, facts.price, { map, reduce: facts.price, isBatch }, cached);
}

/** The map prompt around a chunk: instructions, focus and delimiters, with room to spare. */
const MAP_PROMPT_RESERVE_TOKENS = 4096;
/** The smallest chunk budget the config accepts; a window smaller than this is the user's to fix. */
const MIN_CHUNK_TOKENS = 1000;

/** A chunk plus the map prompt and the map call's output must fit the model's context window. */
function fitChunkTokens(chunkTokens: number, ref: ModelRef | null): number {
  if (ref === null) return chunkTokens;
  const room = fitPromptTokens(modelFactsFor(ref), MAP_MAX_TOKENS) - MAP_PROMPT_RESERVE_TOKENS;
  return Math.min(chunkTokens, Math.max(MIN_CHUNK_TOKENS, room));
}
