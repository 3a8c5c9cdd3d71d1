import type {
  AuditReport,
  ConfigChange,
  Finding,
  RefusedSuppression,
  SecurityHint,
  Severity,
  UnreviewedChange,
} from '../types.js';
import {
  describeRefusedSuppression,
  describeUnreviewedChange,
  REFUSED_SUPPRESSION_RULE_ID,
  UNREVIEWED_CHANGE_RULE_ID,
  UNREVIEWED_CHANGE_SEVERITY,
} from './describe-change-results.js';
import {
  CONFIG_CHANGE_RULE_ID,
  CONFIG_CHANGE_SEVERITY,
  describeConfigChange,
} from './describe-config-change.js';
import { isLowSeverityRule } from '../../safety/redact/redaction-rules.js';
import { classifyFile, type FileKind } from '../scope/classify-file.js';
import { compareSeverity, compareText } from './order-by-severity.js';
import { compareKinds, severityInContext } from './rank-by-context.js';

export type ReportRowKind =
  | 'finding'
  | 'secret'
  | 'secret-file'
  | 'history-secret'
  | 'config-change'
  | 'unreviewed-change'
  | 'refused-suppression'
  | 'hint';

/** One line of the findings summary and one SARIF result: a finding, a secret or a hint. */
export interface ReportRow {
  kind: ReportRowKind;
  /** The SARIF rule id: `oy/finding/<category>`, `oy/secret/<rule>`, `oy/secret-file`, `oy/repo-config/changed`, `oy/unreviewed/changed`, `oy/suppression/added`, or the hint's own id. */
  ruleId: string;
  title: string;
  /** A deterministic row's severity where it was found (see `severityInContext`); a finding's own. */
  severity: Severity;
  category: string;
  /** Workspace-relative POSIX path. */
  path: string;
  /** What the file is for, by its path: application code (`source`) is listed first. */
  fileKind: FileKind;
  /** 1-based; null for a whole-file result (a secret-bearing file). */
  line: number | null;
  /** Last line of a finding's range; null when the result names one line or none. */
  endLine: number | null;
  /** 0 to 1 for a model finding; null for a deterministic result (shown as `hint`). */
  confidence: number | null;
  /** The verbatim evidence or excerpt: the part of the fingerprint that survives code moving. */
  text: string;
  /** The model finding behind a `finding` row (impact, fix...); null for the other kinds. */
  finding: Finding | null;
  /** The commit that added a `history-secret`; the row's path and line are as of that commit. */
  commit?: string;
}

const SECRET_ROW_CATEGORY = 'hardcoded-credential';
const SECRET_FILE_RULE_ID = 'oy/secret-file';

/**
 * The rows of the findings summary: application code first, then tests, fixtures, examples, docs and
 * translations, each most severe first (then path, then line). An offline run lists
 * every deterministic result; a model run lists its verified findings, then the deterministic rows
 * that must not depend on the model: secrets, secret-bearing files, edits to the audit's own
 * configuration and prompt-injection markers (a file can tell the model to stay quiet about itself).
 */
export function listReportRows(report: AuditReport): ReportRow[] {
  const hints = listReportedHints(report).filter(
    (hint) => report.mode === 'offline' || hint.category === 'prompt-injection',
  );
  const suppressed = new Set(report.suppressed.map(suppressedKey));
  const deterministic = sortRows([
    ...[
      ...listSecretRows(report),
      ...listSecretFileRows(report),
      ...listHistorySecretRows(report),
    ].filter((row) => !suppressed.has(suppressedKey(row))),
    ...report.configChanges.map(toConfigChangeRow),
    ...report.unreviewedChanges.map(toUnreviewedChangeRow),
    ...report.refusedSuppressions.map(toRefusedSuppressionRow),
    ...hints.map(toHintRow),
  ]);
  if (report.mode === 'offline') return deterministic;
  // Findings keep the reduce step's ranking (the report's order) within each severity.
  const findings = report.findings
    .map(toFindingRow)
    .sort((a, b) => compareSeverity(a.severity, b.severity));
  return [...findings, ...deterministic];
}

/** Every reported hint as a row (severity in context), in summary order, whatever the mode. */
export function listHintRows(report: AuditReport): ReportRow[] {
  return sortRows(listReportedHints(report).map(toHintRow));
}

/** Committed secrets and committed secret-bearing files: the deterministic results `--fail-on` counts. */
export function listSecretResults(report: AuditReport): ReportRow[] {
  return sortRows([
    ...listSecretRows(report),
    ...listSecretFileRows(report).filter((row) => row.severity !== 'info'),
  ]);
}

function suppressedKey(place: {
  ruleId: string;
  path: string;
  line: number | null;
  commit?: string;
}): string {
  return `${place.ruleId}\0${place.path}\0${place.line ?? ''}\0${place.commit ?? ''}`;
}

const HISTORY_SECRET_FILE = 'secret-file';

/** The rule id of a history secret: `oy/history/secret/<rule>`, or `oy/history/secret-file`. */
export function historyRuleId(rule: string): string {
  return rule === HISTORY_SECRET_FILE ? 'oy/history/secret-file' : `oy/history/secret/${rule}`;
}

/**
 * The secrets the history scan found, one row each, severity in context as a committed secret's.
 * The text is the commit and line, so the row's fingerprint names that place in the history and
 * nothing of the value.
 */
export function listHistorySecretRows(report: AuditReport): ReportRow[] {
  return sortRows(
    (report.history?.secrets ?? []).map((secret) => {
      const isFile = secret.rule === HISTORY_SECRET_FILE;
      const category = isFile ? 'secret-file' : SECRET_ROW_CATEGORY;
      return {
        kind: 'history-secret',
        ruleId: historyRuleId(secret.rule),
        title: isFile
          ? 'Secret-bearing file in the git history'
          : `Secret in the git history (${secret.rule})`,
        ...placeInContext('high', category, secret.path),
        category,
        path: secret.path,
        line: secret.line,
        endLine: null,
        confidence: null,
        text: `${secret.commit}:${secret.line ?? ''}`,
        finding: null,
        commit: secret.commit,
      };
    }),
  );
}

/**
 * The hints a report shows: a hint that repeats a listed secret (a hard-coded credential at the
 * line of a committed secret, a secret-file hint for a listed secret-bearing file) is folded into
 * that secret's row, so one problem is one row.
 */
export function listReportedHints(report: AuditReport): SecurityHint[] {
  const committedSecretPlaces = new Set(
    report.secrets
      .filter((secret) => secret.isTracked)
      .map((secret) => placeKey(secret.path, secret.line)),
  );
  const secretFilePaths = new Set(report.secretFiles.map((file) => file.path));
  return report.hints.filter((hint) => {
    if (hint.category === 'hardcoded-credential') {
      return !committedSecretPlaces.has(placeKey(hint.path, hint.line));
    }
    if (hint.category === 'secret-file') return !secretFilePaths.has(hint.path);
    return true;
  });
}

/** Application code first, then most severe, path, line, rule and text, so equal input always gives equal order. */
function compareRows(a: ReportRow, b: ReportRow): number {
  return (
    compareKinds(a.fileKind, b.fileKind) ||
    compareSeverity(a.severity, b.severity) ||
    compareText(a.path, b.path) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.ruleId, b.ruleId) ||
    compareText(a.title, b.title) ||
    compareText(a.text, b.text)
  );
}

/** The rule id of a model finding: its category as a lowercase slug. */
export function findingRuleId(category: string): string {
  const slug = category
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `oy/finding/${slug || 'uncategorized'}`;
}

function sortRows(rows: ReportRow[]): ReportRow[] {
  return rows.sort(compareRows);
}

function placeKey(path: string, line: number): string {
  return `${line}:${path}`;
}

function toFindingRow(finding: Finding): ReportRow {
  return {
    kind: 'finding',
    ruleId: findingRuleId(finding.category),
    title: finding.title,
    severity: finding.severity,
    category: finding.category,
    path: finding.path,
    fileKind: classifyFile(finding.path),
    line: finding.line,
    endLine: finding.endLine > finding.line ? finding.endLine : null,
    confidence: finding.confidence,
    text: finding.evidence,
    finding,
  };
}

// Only committed secrets are findings; a secret in an untracked file is listed under Secrets alone.
function listSecretRows(report: AuditReport): ReportRow[] {
  return report.secrets
    .filter((secret) => secret.isTracked)
    .map((secret) => ({
      kind: 'secret',
      ruleId: `oy/secret/${secret.rule}`,
      title: `Committed secret (${secret.rule})`,
      ...placeInContext(
        isLowSeverityRule(secret.rule) ? 'low' : 'high',
        SECRET_ROW_CATEGORY,
        secret.path,
      ),
      category: SECRET_ROW_CATEGORY,
      path: secret.path,
      line: secret.line,
      endLine: null,
      confidence: null,
      text: secret.rule,
      finding: null,
    }));
}

function listSecretFileRows(report: AuditReport): ReportRow[] {
  return report.secretFiles.map((file) => ({
    kind: 'secret-file',
    ruleId: SECRET_FILE_RULE_ID,
    title: file.isTracked
      ? 'Secret-bearing file committed'
      : 'Secret-bearing file present (not committed)',
    ...placeInContext(file.isTracked ? 'high' : 'info', 'secret-file', file.path),
    category: 'secret-file',
    path: file.path,
    line: null,
    endLine: null,
    confidence: null,
    text: '',
    finding: null,
  }));
}

function toConfigChangeRow(change: ConfigChange): ReportRow {
  return {
    kind: 'config-change',
    ruleId: CONFIG_CHANGE_RULE_ID,
    title: describeConfigChange(change),
    severity: CONFIG_CHANGE_SEVERITY,
    category: 'repo-config',
    path: change.path,
    // The audit's own configuration decides what is reviewed: it ranks as code that ships.
    fileKind: 'source',
    line: null,
    endLine: null,
    confidence: null,
    text: '',
    finding: null,
  };
}

function toUnreviewedChangeRow(change: UnreviewedChange): ReportRow {
  return {
    kind: 'unreviewed-change',
    ruleId: UNREVIEWED_CHANGE_RULE_ID,
    title: describeUnreviewedChange(change),
    severity: UNREVIEWED_CHANGE_SEVERITY,
    category: 'unreviewed',
    path: change.path,
    fileKind: classifyFile(change.path),
    line: null,
    endLine: null,
    confidence: null,
    text: change.reason,
    finding: null,
  };
}

function toRefusedSuppressionRow(attempt: RefusedSuppression): ReportRow {
  return {
    kind: 'refused-suppression',
    ruleId: REFUSED_SUPPRESSION_RULE_ID,
    title: describeRefusedSuppression(attempt),
    // At the severity of what it would have hidden, wherever that is.
    severity: attempt.severity,
    category: 'suppression',
    path: attempt.path,
    fileKind: classifyFile(attempt.path),
    line: attempt.line,
    endLine: null,
    confidence: null,
    text: `${attempt.by} ${attempt.ruleId}`,
    finding: null,
  };
}

function toHintRow(hint: SecurityHint): ReportRow {
  return {
    kind: 'hint',
    ruleId: hint.ruleId,
    title: hint.message,
    ...placeInContext(hint.severity, hint.category, hint.path),
    category: hint.category,
    path: hint.path,
    line: hint.line,
    endLine: null,
    confidence: null,
    text: hint.excerpt,
    finding: null,
  };
}

/** The file's kind and the severity a deterministic result has there. */
function placeInContext(
  severity: Severity,
  category: string,
  path: string,
): { severity: Severity; fileKind: FileKind } {
  const fileKind = classifyFile(path);
  return { severity: severityInContext(severity, category, fileKind), fileKind };
}
