import { isRepositorySkip } from '../gates/skip-reasons.js';
import type { AuditReport, Coverage } from '../types.js';
import { listReportRows, type ReportRow } from './list-report-rows.js';
import { compareText } from './order-by-severity.js';
import { revealInvisible } from './reveal-invisible.js';
import { buildSarifRules } from './sarif/build-sarif-rules.js';
import { describeSummaryMissing } from './describe-summary-missing.js';
import { fingerprintResult } from './sarif/fingerprint-result.js';
import { locateArtifact } from './sarif/locate-artifact.js';
import type { SarifInvocation, SarifLog, SarifResult } from './sarif/sarif-log.js';
import { SOURCE_ROOT_ID } from './sarif/sarif-log.js';
import { toRowLevel } from './sarif/security-severity.js';

const SARIF_SCHEMA_URI =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const FINGERPRINT_KEY = 'oyFingerprint/v1';

/**
 * The report as SARIF 2.1.0 for GitHub code scanning. The results are the rows of the Markdown
 * findings summary: verified findings, committed secrets, secret-bearing files and hints.
 * Unverified findings are not results, so they can never fail a check; `run.properties` counts them.
 */
export function renderSarif(report: AuditReport): string {
  const rows = listReportRows(report);
  const { pathFromTop } = report.method;
  const rules = buildSarifRules(rows);
  const ruleIndexes = new Map(rules.map((rule, index) => [rule.id, index]));
  const occurrences = new Map<string, number>();
  const results = rows.map((row): SarifResult => {
    const base = fingerprintResult(row.ruleId, row.path, row.text, 0);
    const occurrence = (occurrences.get(base) ?? 0) + 1;
    occurrences.set(base, occurrence);
    return {
      ruleId: row.ruleId,
      ruleIndex: ruleIndexes.get(row.ruleId) ?? 0,
      level: toRowLevel(row),
      message: { text: revealInvisible(describeResult(row)) },
      // A whole-file result points at line 1: code scanning wants a region on every result.
      locations: [locateArtifact(pathFromTop, row.path, row.line ?? 1, row.endLine)],
      partialFingerprints: {
        [FINGERPRINT_KEY]: fingerprintResult(row.ruleId, row.path, row.text, occurrence),
      },
      properties: describeProperties(row),
    };
  });
  const log: SarifLog = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'oy', version: report.tool.version, rules } },
        originalUriBaseIds: {
          [SOURCE_ROOT_ID]: {
            description: {
              text:
                report.method.gitCommit === null && report.method.isDirty === null
                  ? 'The audited folder (not a git work tree).'
                  : 'The top of the git work tree; locations are relative to it, whatever folder was audited.',
            },
          },
        },
        invocations: [describeInvocation(report)],
        results,
        properties: {
          mode: report.mode,
          model: report.model,
          summary: report.summary,
          ...(report.summaryMissing ? { summaryMissing: report.summaryMissing } : {}),
          unverifiedFindings: report.unverified.length,
          coverage: summariseCoverage(report),
          method: report.method,
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function describeResult(row: ReportRow): string {
  switch (row.kind) {
    case 'finding': {
      const finding = row.finding;
      const parts = [row.title];
      if (finding !== null) {
        for (const [label, text] of [
          ['Impact', finding.impact],
          ['Preconditions', finding.preconditions],
          ['Fix', finding.fix],
        ] as const) {
          if (text.trim() !== '') parts.push(`${label}: ${text.trim()}`);
        }
      }
      return parts.join('\n\n');
    }
    case 'secret':
      return `${row.title}: a value matching this rule is in a file git tracks. The value is not shown. Rotate it, then remove it from the repository and its history.`;
    case 'history-secret': {
      const what =
        row.line === null
          ? 'a secret-bearing file was added'
          : `a value matching this rule was added at line ${row.line}`;
      return `${row.title}: in commit ${row.commit ?? ''}, ${what}. The value is not shown. Anyone who clones the repository can read it, even if a later commit removed it: rotate it.`;
    }
    case 'secret-file':
      // Only a file git does not track is info, wherever it sits.
      return row.severity !== 'info'
        ? `${row.title}: git tracks this file; oy did not read it. Remove it from the repository and rotate what it holds.`
        : `${row.title}: oy did not read it. Keep it out of version control.`;
    case 'config-change':
      return `${row.title}. This file decides what oy reviews, so the change may narrow its own review: check that the edit is intended.`;
    case 'unreviewed-change':
      return `${row.title}. Its secrets were scanned, but no model reviewed it: check the change by hand.`;
    case 'refused-suppression':
      return `${row.title}. A change cannot vouch for itself: the result stays; accept it on the default branch instead.`;
    case 'hint':
      return `${row.title} (deterministic hint; may be a false positive)`;
  }
}

function describeProperties(row: ReportRow): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    category: row.category,
    severity: row.severity,
    confidence: row.confidence ?? 'hint',
    source: row.kind === 'finding' ? 'model' : 'deterministic',
    fileKind: row.fileKind,
  };
  if (row.kind === 'hint') properties.excerpt = revealInvisible(row.text);
  if (row.finding !== null) properties.findingFingerprint = row.finding.fingerprint;
  if (row.commit !== undefined) properties.commit = row.commit;
  return properties;
}

// Each not-reviewed file is one notification; a ".oyignore" of "*" must not swell the upload.
const REPOSITORY_NOTIFICATIONS_MAX = 200;

function describeInvocation(report: AuditReport): SarifInvocation {
  const endTime = Date.parse(report.generatedAt);
  const leftOut = report.coverage.ledger.filter(
    (entry) => entry.status === 'skipped' && isRepositorySkip(entry.reason),
  );
  const shownLeftOut = new Set(
    [...leftOut].sort((a, b) => compareText(a.path, b.path)).slice(0, REPOSITORY_NOTIFICATIONS_MAX),
  );
  const notifications = report.coverage.ledger
    .filter((entry) => entry.status === 'failed' || shownLeftOut.has(entry))
    .sort((a, b) => compareText(a.path, b.path))
    .map((entry) => ({
      level: 'warning' as const,
      message: {
        text: revealInvisible(
          `Not reviewed (${entry.reason ?? 'failed'})${entry.detail ? `: ${entry.detail}` : ''}`,
        ),
      },
      locations: [locateArtifact(report.method.pathFromTop, entry.path, null)],
    }));
  const hidden = leftOut.length - shownLeftOut.size;
  if (hidden > 0) {
    notifications.push({
      level: 'warning',
      message: {
        text: `${hidden} more files not reviewed because of what the repository holds are listed in the JSON report and the manifest`,
      },
      locations: [],
    });
  }
  if (report.summaryMissing) {
    notifications.push({
      level: 'warning',
      message: { text: revealInvisible(describeSummaryMissing(report.summaryMissing)) },
      locations: [],
    });
  }
  return {
    executionSuccessful: !report.coverage.isPartial,
    commandLine: report.command,
    ...(Number.isNaN(endTime) ? {} : { endTimeUtc: new Date(endTime).toISOString() }),
    toolExecutionNotifications: notifications,
  };
}

// The ledger lists every file; it belongs to the manifest and the JSON report, not to each upload.
function summariseCoverage(report: AuditReport): Omit<Coverage, 'ledger'> {
  const { coverage } = report;
  return {
    filesReviewed: coverage.filesReviewed,
    filesSkipped: coverage.filesSkipped,
    filesFailed: coverage.filesFailed,
    skippedByReason: sortByKey(coverage.skippedByReason),
    failedByReason: sortByKey(coverage.failedByReason),
    chunks: coverage.chunks,
    scope: coverage.scope,
    chunksSkippedByBudget: coverage.chunksSkippedByBudget,
    cacheHits: coverage.cacheHits,
    tokensIn: coverage.tokensIn,
    tokensOut: coverage.tokensOut,
    costUsd: coverage.costUsd,
    durationMs: coverage.durationMs,
    isPartial: coverage.isPartial,
  };
}

function sortByKey(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => compareText(a, b)));
}
