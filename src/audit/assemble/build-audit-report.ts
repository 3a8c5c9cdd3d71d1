import { OY_VERSION } from '../../shared/version.js';
import { comparePaths } from '../../shared/files/compare-paths.js';
import type { ScannedFile } from '../scan/scanned-file.js';
import type {
  AuditReport,
  ConfigChange,
  Coverage,
  Finding,
  HistoryReport,
  LedgerEntry,
  SecretFile,
  SecretLocation,
  SummaryMissing,
} from '../types.js';
import type { AuditScope } from '../scope/audit-scope.js';
import type { GitState } from './read-git-state.js';
import { listUnreviewedChanges } from '../gates/skip-reasons.js';

/** What the model review adds to a report; absent for an offline run. */
export interface ReviewSummary {
  model: string;
  findings: Finding[];
  unverified: Finding[];
  summary: string | null;
  /** Why the summary is missing, when it is. */
  summaryMissing: SummaryMissing | null;
  tokensIn: number;
  tokensOut: number;
  costUsd: number | null;
  cacheHits: number;
  promptVersionHash: string;
}

export interface AuditReportInput {
  command: string;
  generatedAt: Date;
  files: ScannedFile[];
  ledger: LedgerEntry[];
  secretFiles: SecretFile[];
  configChanges: ConfigChange[];
  /** Whether the run is a `--diff` run: its ledger holds only what the change touched. */
  isDiff: boolean;
  chunks: number;
  /** `--scope`, and the chunks `--riskiest` left out. */
  scope: AuditScope;
  chunksSkippedByBudget: number;
  /** Whether `--offline` was given (an offline run without it had no model configured). */
  isOfflineByChoice: boolean;
  durationMs: number;
  git: GitState;
  planHash: string;
  tokenizer: string;
  chunkTokens: number;
  review?: ReviewSummary;
  /** The history scan (`--diff`, `--history`); absent when no commit was scanned. */
  history?: HistoryReport;
}

/** The report: the deterministic stages' secrets, secret files, hints and coverage, plus the model review when there was one. */
export function buildAuditReport(input: AuditReportInput): AuditReport {
  const secrets: SecretLocation[] = input.files.flatMap((file) =>
    file.redactions.map((redaction) => ({
      rule: redaction.rule,
      path: file.path,
      line: redaction.line,
      isTracked: file.isTracked,
    })),
  );
  const hints = input.files
    .flatMap((file) => file.hints)
    .sort(
      (a, b) => comparePaths(a.path, b.path) || a.line - b.line || comparePaths(a.ruleId, b.ruleId),
    );
  return {
    schemaVersion: 1,
    tool: { name: 'oy', version: OY_VERSION },
    command: input.command,
    generatedAt: input.generatedAt.toISOString(),
    mode: input.review ? 'model' : 'offline',
    offlineReason: input.review ? null : input.isOfflineByChoice ? 'flag' : 'no-model',
    model: input.review?.model ?? null,
    summary: input.review?.summary ?? null,
    ...(input.review?.summaryMissing ? { summaryMissing: input.review.summaryMissing } : {}),
    findings: input.review?.findings ?? [],
    unverified: input.review?.unverified ?? [],
    hints,
    secrets,
    secretFiles: input.secretFiles,
    configChanges: input.configChanges,
    suppressed: [],
    ...(input.history === undefined ? {} : { history: input.history }),
    unreviewedChanges: input.isDiff ? listUnreviewedChanges(input.ledger) : [],
    refusedSuppressions: [],
    coverage: buildCoverage(input),
    method: {
      oyVersion: OY_VERSION,
      gitCommit: input.git.commit,
      isDirty: input.git.isDirty,
      pathFromTop: input.git.pathFromTop,
      promptVersionHash: input.review?.promptVersionHash ?? null,
      planHash: input.planHash,
      tokenizer: input.tokenizer,
      chunkTokens: input.chunkTokens,
    },
  };
}

/** Coverage from the ledger and the review's totals; `oy report merge` builds a merged one the same way. */
export function buildCoverage(
  input: Pick<
    AuditReportInput,
    'ledger' | 'chunks' | 'scope' | 'chunksSkippedByBudget' | 'review' | 'durationMs'
  >,
): Coverage {
  const skippedByReason: Record<string, number> = {};
  const failedByReason: Record<string, number> = {};
  let filesReviewed = 0;
  for (const entry of input.ledger) {
    if (entry.status === 'reviewed') filesReviewed++;
    const bucket =
      entry.status === 'skipped'
        ? skippedByReason
        : entry.status === 'failed'
          ? failedByReason
          : null;
    if (bucket) bucket[entry.reason ?? 'unknown'] = (bucket[entry.reason ?? 'unknown'] ?? 0) + 1;
  }
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    filesReviewed,
    filesSkipped: sum(skippedByReason),
    filesFailed: sum(failedByReason),
    skippedByReason,
    failedByReason,
    chunks: input.chunks,
    scope: input.scope,
    chunksSkippedByBudget: input.chunksSkippedByBudget,
    // Cache hits count model reviews served from the cache; an offline run makes none.
    cacheHits: input.review?.cacheHits ?? 0,
    tokensIn: input.review?.tokensIn ?? 0,
    tokensOut: input.review?.tokensOut ?? 0,
    costUsd: input.review?.costUsd ?? null,
    durationMs: input.durationMs,
    isPartial: sum(failedByReason) > 0,
    ledger: input.ledger,
  };
}
