import type { AuditOptions } from '../audit-options.js';
import type { FoundHistorySecret } from '../history/scan-history.js';
import type { ModelReview } from '../review/run-model-review.js';
import type { ScannedFile } from '../scan/scanned-file.js';
import { DEFAULT_AUDIT_SCOPE } from '../scope/audit-scope.js';
import type { AuditReport, LedgerEntry } from '../types.js';
import { shardDigest } from './shard-digest.js';
import type { ShardReport } from './shard-report.js';
import type { ShardSpec } from './shard-spec.js';

export interface ShardReportInput {
  spec: ShardSpec;
  options: AuditOptions;
  report: AuditReport;
  /** Every planned chunk's id, in review order. */
  chunkIds: string[];
  reviewedChunkIds: string[];
  /** The ledger before the review marked failures. */
  ledger: LedgerEntry[];
  files: readonly ScannedFile[];
  /** With `--diff`: the allow lines the change adds (`findAddedAllowLines`). */
  addedAllowLines: ReadonlySet<string>;
  diffRefCommit: string | null;
  historyFound: readonly FoundHistorySecret[];
  review: ModelReview | null;
}

/** The shard report as written: the shard's report plus what a merge needs, with its digest. */
export function buildShardReport(input: ShardReportInput): ShardReport {
  const { options, report, review } = input;
  const body: Omit<ShardReport, 'digest'> = {
    oyShardReport: 1,
    shard: input.spec,
    identity: {
      oyVersion: report.method.oyVersion,
      gitCommit: report.method.gitCommit,
      isDirty: report.method.isDirty,
      pathFromTop: report.method.pathFromTop,
      planHash: report.method.planHash,
      promptVersionHash: report.method.promptVersionHash,
      model: report.model,
      diffRefCommit: input.diffRefCommit,
      options: {
        scope: options.scope ?? DEFAULT_AUDIT_SCOPE,
        riskiest: options.riskiestChunks ?? null,
        focus: options.focus,
        include: options.include,
        exclude: options.exclude,
        projectInclude: options.projectInclude,
        projectExclude: options.projectExclude,
        diffRef: options.diffRef,
        history: options.scansAllHistory === true,
        maxFileBytes: options.maxFileBytes,
        chunkTokens: options.chunkTokens,
        tokenHeadroom: options.tokenHeadroom,
        encoding: options.encoding,
        maxCostUsd: options.maxCostUsd,
        isOfflineByChoice: options.isOfflineByChoice === true,
      },
    },
    chunks: input.chunkIds,
    reviewedChunks: input.reviewedChunkIds,
    ledger: input.ledger,
    allowedSecretLines: input.files
      .filter((file) => (file.allowedSecretLines ?? []).length > 0)
      .map((file) => ({ path: file.path, allowedSecretLines: file.allowedSecretLines ?? [] })),
    addedAllowLines: [...input.addedAllowLines].sort(),
    historyAllowed: input.historyFound
      .filter((secret) => secret.isAllowed)
      .map(({ rule, commit, path, line }) => ({ rule, commit, path, line })),
    review:
      review === null
        ? null
        : {
            byChunk: review.byChunk.map((item) => ({
              chunkId: item.chunkId,
              verified: item.verified,
              unverified: item.unverified.map(({ reason, ...finding }) => ({
                ...finding,
                unverifiedReason: reason,
              })),
            })),
            failedFiles: [...review.failedFiles.values()],
            totals: {
              inputTokens: review.totals.inputTokens,
              outputTokens: review.totals.outputTokens,
              cacheReadTokens: review.totals.cacheReadTokens,
              cacheWriteTokens: review.totals.cacheWriteTokens,
              costUsd: review.totals.costUsd,
            },
            calls: review.calls,
            cacheHits: review.cacheHits,
            isStoppedByCost: review.isStoppedByCost,
          },
    report,
  };
  return { ...body, digest: shardDigest(body) };
}

/** The shard report as text, pretty, ending like every JSON output so it can be sealed. */
export function renderShardReport(shard: ShardReport): string {
  return `${JSON.stringify(shard, null, 2)}\n`;
}
