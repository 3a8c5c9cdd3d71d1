/** Shared shapes of the audit pipeline, one per stage. */
import type { AuditScope, ReviewScope } from './scope/audit-scope.js';
import type { FileKind } from './scope/classify-file.js';

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

/** Why a candidate file was left out of the review. */
export type SkipReason =
  | 'default-dir'
  | 'lockfile'
  | 'minified'
  | 'generated'
  | 'binary'
  | 'invalid-utf8'
  | 'empty'
  | 'too-large'
  | 'symlink'
  | 'not-regular-file'
  | 'unreadable'
  | 'secret-file'
  | 'repository-ignore'
  | 'project-exclude'
  | 'excluded'
  | 'not-included'
  | 'invalid-name'
  | 'missing'
  | 'unchanged'
  | 'line-too-long'
  | 'oy-output'
  /** Outside `--scope`: the deterministic checks ran on it, the model did not see it. */
  | 'scope'
  /** In scope, but its chunk was not among the `--riskiest` N. */
  | 'budget'
  /** A regular file with more than one link: it may be a file outside the workspace, so it is not read. */
  | 'hard-link'
  /** Binary content (a NUL byte) in a file whose name does not say binary. */
  | 'unexpected-binary'
  /** Files of a checked-out submodule, left out by `--no-submodules`. */
  | 'submodule'
  /** A submodule git records but whose files are not in the work tree. */
  | 'submodule-not-checked-out'
  /** A `.git` folder or file the walker met: git's own, never a candidate. */
  | 'git-dir'
  /** A submodule whose git directory lies outside the workspace and the superproject's git folder. */
  | 'submodule-outside';

/** Why a file that is read for committed secrets is not reviewed: its reason and a detail. */
export interface ReviewSkip {
  reason: SkipReason;
  detail?: string;
}

export type LedgerStatus = 'reviewed' | 'skipped' | 'failed';

/** One line of the coverage ledger: every candidate ends with exactly one. */
export interface LedgerEntry {
  /** Workspace-relative POSIX path; a directory ends with `/`. */
  path: string;
  status: LedgerStatus;
  /** The skip reason or failure kind; absent for `reviewed`. */
  reason?: SkipReason | string;
  /** A short human explanation (size, error code, the marker found). */
  detail?: string;
  /** What the file is for, by its path; set on every file that was read and scanned. */
  kind?: FileKind;
  /** Who looked at a scanned file: the model, or the deterministic checks only (`--scope`). */
  scope?: ReviewScope;
}

/** A file path that survived the path-based filters, not read yet. */
export interface CandidateFile {
  /** Workspace-relative POSIX path (escaped when the name is not UTF-8). */
  path: string;
  /** What the file is opened by: bytes when its name is not UTF-8. */
  absolutePath: string | Buffer;
  size: number;
  /** Whether git tracks it (false outside a git work tree). */
  isTracked: boolean;
  /** Its identity when listed (`fileIdentity`), so a warm scan can know it unchanged unread. */
  identity?: string;
  /**
   * Why the model will not review it, decided from its path or size (a default folder such as
   * `vendor/`, the repository's own rules, a lockfile, a `*.min.*` name, too large): it is still
   * read for committed secrets.
   */
  reviewSkip?: ReviewSkip;
}

/**
 * A candidate's content as text. With no `reviewSkip` it passed the content checks (text, not
 * generated or minified) and may be reviewed; with one, `text` is only scanned for secrets.
 */
export interface CollectedFile {
  path: string;
  text: string;
  size: number;
  isTracked: boolean;
  reviewSkip?: ReviewSkip;
}

import type { Redaction } from '../safety/redact/redaction.js';

export type { Redaction };

export interface RedactedFile {
  path: string;
  /** The text with every secret replaced; same number of lines as the original. */
  text: string;
  redactions: Redaction[];
  isTracked: boolean;
  size: number;
}

export type HintCategory =
  | 'command-execution'
  | 'dynamic-code'
  | 'sql-injection'
  | 'unsafe-deserialization'
  | 'path-traversal'
  | 'ssrf'
  | 'xss'
  | 'weak-crypto'
  | 'tls-verification'
  | 'cors'
  | 'jwt'
  | 'open-redirect'
  | 'nosql-injection'
  | 'xxe'
  | 'template-injection'
  | 'ldap-injection'
  | 'xpath-injection'
  | 'insecure-cookie'
  | 'trust-boundary'
  | 'access-control'
  | 'hardcoded-credential'
  | 'secret-file'
  | 'prompt-injection'
  | 'ci-workflow';

/** A deterministic pointer at a place worth a reviewer's attention: a hint, possibly false. */
export interface SecurityHint {
  ruleId: string;
  category: HintCategory;
  severity: Severity;
  path: string;
  /** 1-based line. */
  line: number;
  /** A short, redacted excerpt of the line. */
  excerpt: string;
  message: string;
}

/** A file reduced to what chunking needs: its text is not kept. */
export interface ChunkableFile {
  path: string;
  /** Tokenizer tokens of the redacted text, with an allowance per placeholder. */
  tokens: number;
  lineCount: number;
  /** sha256 (hex) of the redacted text. */
  contentHash: string;
  /**
   * Tokens per line (1-based line n at index n-1) from `TokenCounter.countLines`, with the same
   * per-placeholder allowance; required when `needsLineTokens(path, tokens, budgetTokens)` says so.
   */
  lineTokens?: number[];
  /** Sum of hint weights, so risky code is reviewed first. */
  riskScore: number;
}

/** One labelled slice of a file inside a chunk. */
export interface ChunkPart {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Whether the file was split, so the label carries its line range. */
  isSplit: boolean;
  /** Tokenizer tokens of the slice, header included. */
  tokens: number;
  contentHash: string;
}

export interface Chunk {
  /** sha256 of its parts' labels and content hashes: the same content gives the same id. */
  id: string;
  parts: ChunkPart[];
  /** Tokenizer tokens of the whole chunk; never above the budget. */
  tokens: number;
  riskScore: number;
}

/** A finding written by the model and checked against the source. */
export interface Finding {
  fingerprint: string;
  title: string;
  severity: Severity;
  category: string;
  path: string;
  line: number;
  endLine: number;
  evidence: string;
  impact: string;
  preconditions: string;
  fix: string;
  confidence: number;
  /** The line the model cited, when its evidence was found at another line (`line`). */
  citedLine?: number;
  /** Why an unverified finding did not match the source; absent on a verified finding. */
  unverifiedReason?: string;
}

/** A redacted secret as the report lists it: rule and place, never the value. */
export interface SecretLocation {
  rule: string;
  path: string;
  line: number;
  /** Whether git tracks the file, which makes it a committed secret. */
  isTracked: boolean;
}

/** A committed secret or secret-bearing file that `--baseline` or an `oy:allow` comment accepted: rule and place, never the value. */
export interface SuppressedResult {
  ruleId: string;
  path: string;
  /** null for a whole file. */
  line: number | null;
  /** The commit that added it, for a secret found in the history. */
  commit?: string;
  by: 'baseline' | 'allow-comment';
}

/**
 * With `--diff`: a baseline entry or `oy:allow` comment that the audited change adds. It
 * suppresses nothing, and is itself a result at the severity of what it would have hidden.
 */
export interface RefusedSuppression {
  /** The rule of the result it would have hidden. */
  ruleId: string;
  path: string;
  /** null for a whole file. */
  line: number | null;
  by: 'baseline' | 'allow-comment';
  severity: Severity;
  /** The title of the result it would have hidden. */
  title: string;
}

/** With `--diff`: a changed file the review skipped for a reason the repository caused. */
export interface UnreviewedChange {
  path: string;
  reason: string;
  detail?: string;
}

/** A secret-bearing file (a .env, a private key) found in the workspace and never read. */
export interface SecretFile {
  path: string;
  isTracked: boolean;
}

/**
 * A file that configures the audit itself (`.oyignore`, `.oy/config.json`) and that the audited
 * change (`--diff`) adds, edits or deletes: the change may be narrowing its own review.
 */
export interface ConfigChange {
  path: string;
}

/** A secret a commit added, found by the history scan: rule and place, never the value. */
export interface HistorySecret {
  /** The redaction rule, or `secret-file` for a secret-bearing file (a .env, a key) the commit added. */
  rule: string;
  /** The full id of the commit that added it. */
  commit: string;
  /** Workspace-relative POSIX path in that commit. */
  path: string;
  /** 1-based line in that commit's version of the file; null for a secret-bearing file. */
  line: number | null;
}

/** What the history scan read (`--diff`: the range's commits; `--history`: every commit from HEAD). */
export interface HistoryReport {
  /** `range`: the commits of `<ref>..HEAD` (`--diff`); `all`: every commit reachable from HEAD (`--history`). */
  scope: 'range' | 'all';
  /** The `--diff` ref as given; null for `all`. */
  ref: string | null;
  /** Commits whose added lines were scanned. */
  commits: number;
  /** Distinct file versions (blobs) scanned; one met again is not scanned twice. */
  blobs: number;
  /** Bytes of those blobs. */
  bytes: number;
  /** Changed files not scanned, by reason (binary, too-large, default-dir, excluded, missing...). */
  skippedByReason: Record<string, number>;
  /** The clone is shallow: commits before its boundary are not in it, so were not scanned. */
  isShallow: boolean;
  /** Oldest commit first, then path and line. */
  secrets: HistorySecret[];
}

export interface Coverage {
  filesReviewed: number;
  filesSkipped: number;
  filesFailed: number;
  skippedByReason: Record<string, number>;
  failedByReason: Record<string, number>;
  chunks: number;
  /** The `--scope` of the run: which kinds of file the model was given. */
  scope: AuditScope;
  /** Chunks left out by `--riskiest`; their files are `skipped(budget)`. */
  chunksSkippedByBudget: number;
  cacheHits: number;
  tokensIn: number;
  tokensOut: number;
  /** null when the model has no known price or no model was used. */
  costUsd: number | null;
  durationMs: number;
  isPartial: boolean;
  ledger: LedgerEntry[];
}

export interface Method {
  oyVersion: string;
  gitCommit: string | null;
  /** null outside a git work tree. */
  isDirty: boolean | null;
  /** The audited folder relative to the git work tree's top (`svc/api/`); `''` at the top or outside git. */
  pathFromTop: string;
  /** null for an offline run, which sends no prompt. */
  promptVersionHash: string | null;
  planHash: string;
  tokenizer: string;
  chunkTokens: number;
}

/**
 * Why the report has no executive summary: the reduce call `failed` (the provider's error), its answer
 * was cut (`truncated`, `refused`, `incomplete`, as `judgeAnswerEnd` says), or it held nothing usable
 * (`unreadable`). One field for every cause, rendered one way in each format.
 */
export interface SummaryMissing {
  reason: 'failed' | 'truncated' | 'refused' | 'incomplete' | 'unreadable';
  /** One line on what happened, as oy or the provider said it; untrusted, escaped where shown. */
  detail: string;
}

/** Everything a report renderer needs; the JSON format is this object. */
export interface AuditReport {
  schemaVersion: 1;
  tool: { name: 'oy'; version: string };
  /** The command line that reproduces the report. */
  command: string;
  generatedAt: string;
  mode: 'offline' | 'model';
  /** Why an offline run used no model: `--offline` was given, or none was configured; null for a model run. */
  offlineReason: 'flag' | 'no-model' | null;
  model: string | null;
  summary: string | null;
  /** Present when a model run has findings but no summary, and why: the findings keep the deterministic order. */
  summaryMissing?: SummaryMissing;
  findings: Finding[];
  unverified: Finding[];
  hints: SecurityHint[];
  secrets: SecretLocation[];
  secretFiles: SecretFile[];
  /** Audit configuration files the `--diff` change touches; always empty without `--diff`. */
  configChanges: ConfigChange[];
  /** Committed secrets and secret-bearing files left out of the results and the gates, and why. */
  suppressed: SuppressedResult[];
  /** The history scan, present when commits were scanned (`--diff`, `--history`). */
  history?: HistoryReport;
  /** With `--diff`: changed files the review skipped for a reason the repository caused; empty otherwise. */
  unreviewedChanges: UnreviewedChange[];
  /** With `--diff`: suppressions the audited change adds, refused; empty otherwise. */
  refusedSuppressions: RefusedSuppression[];
  coverage: Coverage;
  method: Method;
}
