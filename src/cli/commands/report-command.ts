import path from 'node:path';
import type { ReportFormat } from '../../config/config-schema.js';
import { loadConfig } from '../../config/load-config.js';
import { loadOutputSealKey, STATE_KEY_VARIABLE } from '../../audit/outputs/load-output-seal-key.js';
import { describeSummaryMissing } from '../../audit/report/describe-summary-missing.js';
import { summarizeAudit } from '../../audit/report/summarize-audit.js';
import { runReportMerge } from '../../audit/shard/run-report-merge.js';
import type { Severity } from '../../audit/types.js';
import { UsageError } from '../../shared/errors.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { stringifyForTerminal } from '../../shared/terminal/stringify-for-terminal.js';
import { buildFlagLayer } from '../flags/build-flag-layer.js';
import { GLOBAL_FLAGS } from '../flags/command-table.js';
import { formatCommandLine } from '../format-command-line.js';
import type { GlobalOptions } from '../global-options.js';
import { renderAuditSummary } from '../render-audit-summary.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { createColors, shouldColor } from '../terminal.js';
import { resolveReportFormat } from './audit-command.js';

/** The flags of `oy report`, already checked against REPORT_FLAGS by the parser. */
export interface ReportFlags extends GlobalOptions {
  out?: string;
  format?: ReportFormat;
  failOn?: Severity;
  minCoverage?: number;
  allowPartial?: boolean;
  baseline?: string;
  offline?: boolean;
  force?: boolean;
  cache?: boolean;
}

const ACTIONS = ['merge'] as const;

/** `oy report merge <shard.json>...`: the merged report written, one line on stdout, the gates' exit code. */
export async function runReportCommand(
  action: string | undefined,
  files: string[],
  flags: ReportFlags,
): Promise<void> {
  if (action !== 'merge')
    throw new UsageError(
      action === undefined ? 'oy report needs an action' : `unknown oy report action "${action}"`,
      {
        hint: `the actions are ${ACTIONS.join(', ')}: oy report merge oy-shard-*.json --out oy.sarif`,
      },
    );
  if (files.length === 0)
    throw new UsageError('oy report merge needs the shard reports to merge', {
      hint: 'give every JSON file oy audit --shard k/n wrote: oy report merge oy-shard-*.json --out oy.sarif',
    });
  if (flags.out === '-' && flags.json)
    throw new UsageError('--json and --out - would both write to stdout', {
      hint: 'keep --json with --out <file>',
    });
  const root = resolveWorkspaceRoot(flags.cwd, process.env);
  const out = flags.out ?? null;
  const format = resolveReportFormat(flags.format, out) ?? 'markdown';
  const { config, warnings, paths } = await loadConfig({
    workspaceRoot: root,
    env: process.env,
    flags: buildFlagLayer(GLOBAL_FLAGS, flags),
  });
  for (const warning of warnings)
    if (!flags.quiet) process.stderr.write(`warning: ${neutralizeControl(warning)}\n`);

  const outcome = await runReportMerge({
    root,
    files,
    format,
    out,
    isForced: Boolean(flags.force),
    sealKey: await loadOutputSealKey(paths.stateDir, process.env[STATE_KEY_VARIABLE]),
    cacheDir: flags.cache === false ? null : paths.cacheDir,
    failOn: flags.failOn ?? null,
    minCoverage: flags.minCoverage ?? null,
    allowPartial: Boolean(flags.allowPartial),
    baselinePath: flags.baseline ?? null,
    model: flags.offline ? null : config.model,
    models: config.models,
    env: process.env,
    command: formatCommandLine(['oy', ...process.argv.slice(2)]),
    ...(flags.quiet
      ? {}
      : { onNotice: (text: string) => process.stderr.write(`note: ${neutralizeControl(text)}\n`) }),
  });
  const summary = summarizeAudit(outcome.report, outcome.modelCalls);
  if (outcome.report.summaryMissing && !flags.quiet)
    process.stderr.write(
      `warning: the report has ${neutralizeControl(describeSummaryMissing(outcome.report.summaryMissing), { lineBreaks: 'show' })}\n`,
    );
  if (outcome.reportPath === null) {
    const text = outcome.reportText.endsWith('\n') ? outcome.reportText : `${outcome.reportText}\n`;
    process.stdout.write(process.stdout.isTTY ? neutralizeControl(text) : text);
  } else if (flags.json) {
    process.stdout.write(
      stringifyForTerminal(
        {
          report: outcome.reportPath,
          format,
          mode: outcome.report.mode,
          shards: files.length,
          findings: outcome.report.findings.length,
          secrets: outcome.report.secrets.length,
          hints: outcome.report.hints.length,
          filesReviewed: outcome.report.coverage.filesReviewed,
          filesFailed: outcome.report.coverage.filesFailed,
          modelCalls: outcome.modelCalls,
          exitCode: outcome.gates.exitCode,
          gateReasons: outcome.gates.reasons,
        },
        2,
      ) + '\n',
    );
  } else {
    const shown = path.relative(process.cwd(), outcome.reportPath) || outcome.reportPath;
    process.stdout.write(`${neutralizeControl(shown, { lineBreaks: 'show' })}\n`);
    if (!flags.quiet) {
      const colors = createColors(shouldColor(process.stderr, flags, process.env));
      process.stderr.write(renderAuditSummary(summary, shown, colors));
    }
  }
  if (outcome.suppressedByBaseline > 0 && !flags.quiet)
    process.stderr.write(`${outcome.suppressedByBaseline} finding(s) suppressed by --baseline\n`);
  for (const reason of outcome.gates.reasons)
    process.stderr.write(`gate: ${neutralizeControl(reason)}\n`);
  process.exitCode = outcome.gates.exitCode;
}
