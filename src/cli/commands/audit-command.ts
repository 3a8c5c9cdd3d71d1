import { existsSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { AuditOptions } from '../../audit/audit-options.js';
import { renderPlan } from '../../audit/plan/render-plan.js';
import { runAudit } from '../../audit/run-audit.js';
import { describeSummaryMissing } from '../../audit/report/describe-summary-missing.js';
import { summarizeAudit, type AuditSummary } from '../../audit/report/summarize-audit.js';
import { loadOutputSealKey, STATE_KEY_VARIABLE } from '../../audit/outputs/load-output-seal-key.js';
import type { Severity } from '../../audit/types.js';
import { DEFAULT_AUDIT_SCOPE, type AuditScope } from '../../audit/scope/audit-scope.js';
import { parseModelId } from '../../providers/model-id/parse-model-id.js';
import {
  modelFactsFor,
  UNKNOWN_TOKEN_HEADROOM,
} from '../../providers/model-facts/model-facts-for.js';
import type { ReportFormat } from '../../config/config-schema.js';
import { loadConfig } from '../../config/load-config.js';
import { ConfigError, UsageError } from '../../shared/errors.js';
import { parseShardSpec, type ShardSpec } from '../../audit/shard/shard-spec.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import {
  AUDIT_FLAGS,
  DEFAULT_BATCH_TIMEOUT_MS,
  DEFAULT_CONCURRENCY,
} from '../flags/audit-flags.js';
import { createBatchEventRenderer } from '../render-batch-event.js';
import { buildFlagLayer } from '../flags/build-flag-layer.js';
import { GLOBAL_FLAGS } from '../flags/command-table.js';
import type { GlobalOptions } from '../global-options.js';
import { renderAuditSummary } from '../render-audit-summary.js';
import { createProgressRenderer } from '../render-progress.js';
import { createColors, shouldColor } from '../terminal.js';
import { formatCommandLine } from '../format-command-line.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { editDistance } from '../../shared/text/edit-distance.js';

/** The flags of `oy audit`, already checked against AUDIT_FLAGS by the parser. */
export interface AuditFlags extends GlobalOptions {
  out?: string;
  format?: ReportFormat;
  manifest?: string;
  include?: string[];
  exclude?: string[];
  diff?: string;
  history?: boolean;
  maxFileBytes?: number;
  chunkTokens?: number;
  maxChunks?: number;
  scope?: AuditScope;
  riskiest?: number;
  shard?: string;
  dryRun?: boolean;
  concurrency?: number;
  maxCost?: number;
  batch?: boolean;
  /** In milliseconds. */
  batchTimeout?: number;
  failOn?: Severity;
  baseline?: string;
  writeBaseline?: string;
  minCoverage?: number;
  allowPartial?: boolean;
  force?: boolean;
  offline?: boolean;
  cache?: boolean;
  submodules?: boolean;
}

/** `--out -`: the report goes to stdout. */
const STDOUT = '-';

/** Files read and scanned at once: enough to hide I/O latency without holding many files in memory. */
const SCAN_CONCURRENCY = 16;

/** `oy audit [path] [focus...]`: flags to options, then the audit, then one line (or JSON) on stdout. */
export async function runAuditCommand(
  pathArg: string | undefined,
  focusArgs: string[],
  flags: AuditFlags,
): Promise<void> {
  const { root, focus } = resolveAuditTarget(pathArg, focusArgs, flags);
  const shard = flags.shard === undefined ? null : parseShardSpec(flags.shard);
  if (shard !== null) refuseShardConflicts(shard, flags);
  const out = flags.out ?? (shard === null ? null : shardReportName(shard));
  if (out === STDOUT && flags.json)
    throw new UsageError('--json and --out - would both write to stdout', {
      hint: 'for the report as JSON on stdout use --format json --out -; keep --json with --out <file>',
    });
  const flagLayer = buildFlagLayer([...GLOBAL_FLAGS, ...AUDIT_FLAGS], flags);
  if (focus.length > 0) flagLayer.audit = { ...flagLayer.audit, focus };
  const format = shard === null ? resolveReportFormat(flags.format, out) : 'json';
  if (format !== undefined) flagLayer.audit = { ...flagLayer.audit, format };
  const manifest = flags.manifest ?? null;
  const diffRef = flags.diff ?? null;
  const { config, projectAudit, warnings, paths } = await loadConfig({
    workspaceRoot: root,
    env: process.env,
    flags: flagLayer,
  });
  for (const warning of warnings)
    if (!flags.quiet) process.stderr.write(`warning: ${neutralizeControl(warning)}\n`);

  const model = flags.offline ? null : config.model;
  const ref = model === null ? null : parseModelId(model);
  const progress = createProgressRenderer(process.stderr, Boolean(flags.quiet));
  let hasNoticed = false;
  if (flags.batchTimeout !== undefined && !flags.batch)
    throw new UsageError('--batch-timeout only applies with --batch', {
      hint: 'add --batch to send the review as one batch, or drop --batch-timeout',
    });
  const batchTimeoutMs = flags.batchTimeout ?? DEFAULT_BATCH_TIMEOUT_MS;
  const options: AuditOptions = {
    root,
    format: config.audit.format,
    out,
    manifest,
    isForced: Boolean(flags.force),
    sealKey: await loadOutputSealKey(paths.stateDir, process.env[STATE_KEY_VARIABLE]),
    include: config.audit.include,
    exclude: config.audit.exclude,
    projectInclude: projectAudit.include,
    projectExclude: projectAudit.exclude,
    focus: config.audit.focus,
    diffRef,
    scansAllHistory: Boolean(flags.history),
    submodules: flags.submodules !== false,
    maxFileBytes: config.audit.maxFileBytes,
    chunkTokens: config.audit.chunkTokens,
    maxChunks: config.audit.maxChunks,
    scope: flags.scope ?? DEFAULT_AUDIT_SCOPE,
    riskiestChunks: flags.riskiest ?? null,
    shard,
    isOfflineByChoice: Boolean(flags.offline),
    // The model's tokens per tiktoken token; with no model, the largest ratio oy knows.
    tokenHeadroom:
      config.audit.tokenHeadroom ??
      (ref === null ? UNKNOWN_TOKEN_HEADROOM : modelFactsFor(ref).tokenHeadroom),
    encoding: config.audit.encoding,
    isDryRun: Boolean(flags.dryRun),
    model,
    models: config.models,
    concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
    maxCostUsd: flags.maxCost ?? null,
    failOn: flags.failOn ?? null,
    baselinePath: flags.baseline ?? null,
    writeBaselinePath: flags.writeBaseline ?? null,
    minCoverage: flags.minCoverage ?? null,
    allowPartial: Boolean(flags.allowPartial),
    batch: flags.batch
      ? { timeoutMs: batchTimeoutMs, pollIntervalMs: readBatchPollInterval(process.env) }
      : null,
    stateDir: paths.stateDir,
    ...(flags.quiet
      ? {}
      : {
          onBatchEvent: createBatchEventRenderer(
            (line) => process.stderr.write(`${line}\n`),
            batchTimeoutMs,
          ),
        }),
    cacheDir: flags.cache === false ? null : paths.cacheDir,
    command: formatCommandLine(['oy', ...process.argv.slice(2)]),
    scanConcurrency: SCAN_CONCURRENCY,
    env: process.env,
    // What happened to caches and answers, line by line: `--verbose` only.
    ...(flags.verbose
      ? { onNotice: (text: string) => process.stderr.write(`note: ${neutralizeControl(text)}\n`) }
      : {}),
    onProgress: (event) => {
      // Said once the outputs are known to be good, so a bad --out gets only its error.
      if (!hasNoticed) printModeNotice(model, flags);
      hasNoticed = true;
      progress.render(event);
    },
  };

  const outcome = await runAudit(options).finally(progress.finish);
  if (outcome.kind === 'plan') {
    process.stdout.write(
      flags.json ? stringifyForTerminal(outcome.plan, 2) + '\n' : renderPlan(outcome.plan),
    );
    return;
  }
  if (outcome.reportPath === null) {
    // `--out -`: the report is stdout's only content; on a terminal it is shown inertly.
    const text = outcome.reportText.endsWith('\n') ? outcome.reportText : `${outcome.reportText}\n`;
    process.stdout.write(process.stdout.isTTY ? neutralizeControl(text) : text);
  } else if (flags.json) {
    const { coverage } = outcome.report;
    const summary = {
      report: outcome.reportPath,
      manifest: outcome.manifestPath,
      format: options.format,
      mode: outcome.report.mode,
      secrets: outcome.report.secrets.length,
      secretFiles: outcome.report.secretFiles.length,
      historySecrets: outcome.report.history?.secrets.length ?? null,
      hints: outcome.report.hints.length,
      findings: outcome.report.findings.length,
      filesReviewed: coverage.filesReviewed,
      filesSkipped: coverage.filesSkipped,
      filesFailed: coverage.filesFailed,
      ...jsonFieldsOf(summarizeAudit(outcome.report, outcome.modelCalls)),
    };
    process.stdout.write(
      stringifyForTerminal(
        { ...summary, exitCode: outcome.gates.exitCode, gateReasons: outcome.gates.reasons },
        2,
      ) + '\n',
    );
  } else {
    const shown = path.relative(process.cwd(), outcome.reportPath) || outcome.reportPath;
    process.stdout.write(`${neutralizeControl(shown, { lineBreaks: 'show' })}\n`);
  }
  if (outcome.report.coverage.ledger.length === 0 && !flags.quiet) {
    process.stderr.write(
      `warning: no file was found to audit in ${neutralizeControl(root, { lineBreaks: 'show' })}; check the folder, --include and --exclude\n`,
    );
  }
  // Said even with --json: the one line on a degraded report, which stdout's fields also carry.
  if (outcome.report.summaryMissing && !flags.quiet) {
    process.stderr.write(
      `warning: the report has ${neutralizeControl(describeSummaryMissing(outcome.report.summaryMissing), { lineBreaks: 'show' })}\n`,
    );
  }
  if (!flags.quiet && !flags.json) {
    const shown =
      outcome.reportPath === null
        ? null
        : path.relative(process.cwd(), outcome.reportPath) || outcome.reportPath;
    const colors = createColors(shouldColor(process.stderr, flags, process.env));
    process.stderr.write(
      renderAuditSummary(summarizeAudit(outcome.report, outcome.modelCalls), shown, colors),
    );
  }
  if (outcome.suppressedByBaseline > 0 && !flags.quiet) {
    process.stderr.write(`${outcome.suppressedByBaseline} finding(s) suppressed by --baseline\n`);
  }
  if (outcome.suppressedByComment > 0 && !flags.quiet) {
    process.stderr.write(
      `${outcome.suppressedByComment} committed secret(s) accepted by an oy:allow comment\n`,
    );
  }
  // The report is written whatever the verdict; the gates only decide the exit code.
  for (const reason of outcome.gates.reasons)
    process.stderr.write(`gate: ${neutralizeControl(reason)}\n`);
  process.exitCode = outcome.gates.exitCode;
}

/** The terminal summary's numbers as `--json` fields, beside the counts it has always carried. */
function jsonFieldsOf(summary: AuditSummary) {
  const { findings, secrets, hints, top, notReviewed, model, modelCalls, costUsd, summaryMissing } =
    summary;
  return {
    bySeverity: { findings, secrets, hints },
    top,
    notReviewed,
    model,
    modelCalls,
    costUsd,
    summaryMissing,
  };
}

/** The variable that sets how often `--batch` polls, in milliseconds (tests poll at once; the default schedule otherwise). */
export const BATCH_POLL_VARIABLE = 'OY_BATCH_POLL_MS';
/** An hour: a batch ends within a day, so rarer polls only delay the report. */
const MAX_BATCH_POLL_MS = 3_600_000;

function readBatchPollInterval(env: NodeJS.ProcessEnv): number | null {
  const text = env[BATCH_POLL_VARIABLE];
  if (text === undefined || text === '') return null;
  const ms = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(ms <= MAX_BATCH_POLL_MS))
    throw new ConfigError(
      `${BATCH_POLL_VARIABLE} must be a whole number of milliseconds from 0 to ${MAX_BATCH_POLL_MS}, got \`${neutralizeControl(text)}\``,
      {
        hint: `unset ${BATCH_POLL_VARIABLE} to poll on oy's own schedule, or set it to 60000 to poll every minute`,
      },
    );
  return ms;
}

/** Edits within which a first word counts as a mistyped folder name rather than a focus word. */
const MAX_FOLDER_TYPO_DISTANCE = 2;

/**
 * The first positional names the workspace when it is a directory; otherwise every word is a
 * focus word, and stderr says so. A word shaped like a path, an existing file, or a near-typo of
 * a folder here was meant as a path: refused, never quietly taken for focus.
 */
function resolveAuditTarget(pathArg: string | undefined, focusArgs: string[], flags: AuditFlags) {
  const base = resolveWorkspaceRoot(flags.cwd, process.env);
  if (pathArg === undefined) return { root: base, focus: focusArgs };
  const candidate = path.resolve(base, pathArg);
  if (isDirectory(candidate)) return { root: realpathSync(candidate), focus: focusArgs };
  const hint = `give the workspace directory (or none for the current one); focus words come after it: oy audit . ${pathArg}`;
  if (/[/\\.~]/.test(pathArg) || existsSync(candidate)) {
    throw new UsageError(`${pathArg} is not a directory to audit`, { hint });
  }
  const nearest = findNearestFolder(base, pathArg);
  if (nearest !== null) {
    throw new UsageError(`${pathArg} is not a directory to audit; did you mean ${nearest}?`, {
      hint,
    });
  }
  if (!flags.quiet) {
    process.stderr.write(
      `note: ${neutralizeControl(pathArg)} is not a folder here, so the words are focus words for the review; to audit a folder, give its path first\n`,
    );
  }
  return { root: base, focus: [pathArg, ...focusArgs] };
}

/** The folder of `base` whose name is nearest `word` within a couple of edits, or null. */
function findNearestFolder(base: string, word: string): string | null {
  if (word.length < 3) return null;
  let entries: Dirent[];
  try {
    entries = readdirSync(base, { withFileTypes: true });
  } catch {
    return null;
  }
  const lower = word.toLowerCase();
  const nearest = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => ({ name: entry.name, distance: editDistance(lower, entry.name.toLowerCase()) }))
    .filter(
      (entry) => entry.distance <= MAX_FOLDER_TYPO_DISTANCE && entry.distance < word.length / 2,
    )
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1))[0];
  return nearest?.name ?? null;
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/** `oy-shard-2-of-3.json`: each runner's default, so downloaded artifacts never collide. */
function shardReportName(shard: ShardSpec): string {
  return `oy-shard-${shard.index}-of-${shard.count}.json`;
}

/**
 * A shard report is JSON for `oy report merge`, and the gates and the baseline need every shard's
 * findings: each is refused here with where it belongs, rather than applied to a part.
 */
function refuseShardConflicts(shard: ShardSpec, flags: AuditFlags): void {
  const implied =
    flags.out === undefined || flags.out === STDOUT ? undefined : formatOfExtension(flags.out);
  const format = flags.format ?? implied;
  if (format !== undefined && format !== 'json')
    throw new UsageError(
      `--shard writes a JSON shard report, not ${format}${flags.format === undefined ? ` (--out ${flags.out})` : ''}`,
      {
        hint: `drop --format and name the file .json (--out oy-shard-${shard.index}-of-${shard.count}.json); oy report merge --out report.${format === 'sarif' ? 'sarif' : 'md'} writes the ${format} report`,
      },
    );
  const mergeOnly = (
    [
      ['fail-on', flags.failOn],
      ['min-coverage', flags.minCoverage],
      ['baseline', flags.baseline],
      ['write-baseline', flags.writeBaseline],
    ] as const
  ).find(([, value]) => value !== undefined);
  if (mergeOnly !== undefined)
    throw new UsageError(
      `--${mergeOnly[0]} applies to the whole audit, not to --shard ${shard.index}/${shard.count}`,
      {
        hint:
          mergeOnly[0] === 'write-baseline'
            ? 'write the baseline from an unsharded oy audit run'
            : "give it to oy report merge, which sees every shard's findings",
      },
    );
}

/** `--format` follows `--out`'s extension when not given; a contradiction is refused rather than guessed. */
export function resolveReportFormat(format: ReportFormat | undefined, out: string | null) {
  const implied = out === null || out === STDOUT ? undefined : formatOfExtension(out);
  if (format !== undefined && implied !== undefined && format !== implied) {
    throw new UsageError(`--format ${format} does not match --out ${out}, a ${implied} file name`, {
      hint: `drop --format to write ${implied}, or name the file with the ${format} extension`,
    });
  }
  return format ?? implied;
}

function formatOfExtension(file: string): ReportFormat | undefined {
  const name = file.toLowerCase();
  if (name.endsWith('.md') || name.endsWith('.markdown')) return 'markdown';
  if (name.endsWith('.sarif') || name.endsWith('.sarif.json')) return 'sarif';
  if (name.endsWith('.json')) return 'json';
  return undefined;
}

function printModeNotice(model: string | null, flags: AuditFlags): void {
  if (flags.quiet || flags.dryRun) return;
  if (model === null && !flags.offline) {
    process.stderr.write(
      'notice: no model configured; writing the offline report (deterministic checks only)\n',
    );
  }
}
