import { createHash } from 'node:crypto';
import { isLowSeverityRule } from '../../safety/redact/redaction-rules.js';
import { makeExcerpt } from '../hints/make-excerpt.js';
import { estimateTokens } from '../tokens/estimate-tokens.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { classifyFile, type FileKind } from '../scope/classify-file.js';
import type { CollectedFile, Redaction, SecurityHint, Severity } from '../types.js';
import type { AllowedLine, ScannedFile } from './scanned-file.js';

/**
 * Placeholders are numbered per run, so a file's count cannot know the final digits:
 * each placeholder is charged this many extra tokens, which keeps every chunk under its budget.
 */
export const PLACEHOLDER_TOKEN_ALLOWANCE = 2;

export interface ScanTools {
  redact(text: string): { text: string; redactions: Redaction[] };
  indexFile(file: { path: string; text: string }): SecurityHint[];
  counter(): TokenCounter;
  /** Whether a file this large may be split, so its per-line counts must be kept. */
  needsLineTokens(path: string, tokens: number): boolean;
  /**
   * Whether the run may send this path to the model, so its count must be exact; a file it never
   * sends gets an estimate (`estimateTokens`). Absent: every count is exact.
   */
  needsExactTokens?(path: string): boolean;
}

/** Redaction threw: the file must fail closed. */
export class RedactionFailed extends Error {
  constructor(filePath: string, cause: unknown) {
    super(`redaction failed for ${filePath}`, { cause });
  }
}

/**
 * Redacts, indexes and counts one file; a file the model will not review (`reviewSkip`) is only
 * redacted, for its secrets. Throws only if redaction itself fails; the caller fails closed.
 */
export function scanText(file: CollectedFile, tools: ScanTools): ScannedFile {
  let redacted: { text: string; redactions: Redaction[] };
  try {
    redacted = tools.redact(file.text);
  } catch (error) {
    throw new RedactionFailed(file.path, error);
  }
  if (file.reviewSkip !== undefined) return scanSecretsOnly(file, redacted);
  const text = redacted.text;
  const hints = [
    ...tools.indexFile({ path: file.path, text }),
    ...hintsFromRedactions(file.path, text, redacted.redactions),
  ];
  const allowance = redacted.redactions.length * PLACEHOLDER_TOKEN_ALLOWANCE;
  const isEstimate = tools.needsExactTokens?.(file.path) === false;
  // A file the model is never sent needs no tokenizer: its count only feeds the plan's display.
  const counter = isEstimate ? undefined : tools.counter();
  // A file that will likely be split is counted line by line only, its total from its lines.
  const counted: { tokens: number; lineTokens?: number[] } =
    counter && tools.needsLineTokens(file.path, estimateTokens(text.length) + allowance)
      ? counter.countWithLines(text)
      : { tokens: counter ? counter.count(text) : estimateTokens(file.size) };
  const tokens = counted.tokens + allowance;
  const sourceHash = hashText(file.text);
  const scanned: ScannedFile = {
    path: file.path,
    size: file.size,
    isTracked: file.isTracked,
    sourceHash,
    // Most files hold no secret: the same text need not be hashed twice.
    contentHash: text === file.text ? sourceHash : hashText(text),
    tokens,
    lineCount: countLines(text),
    redactions: redacted.redactions,
    hints,
  };
  const allowed = listAllowedLines(file.text, text, redacted.redactions);
  if (allowed.length > 0) scanned.allowedSecretLines = allowed;
  if (!counter) scanned.isTokenEstimate = true;
  else if (tools.needsLineTokens(file.path, tokens)) {
    const lineTokens = counted.lineTokens ?? counter.countLines(text);
    scanned.lineTokens = chargeAllowance(lineTokens, redacted.redactions);
  }
  return scanned;
}

/** A file the model will not review: its secrets (and `oy:allow` lines) only, no hints, no tokens. */
function scanSecretsOnly(
  file: CollectedFile,
  { text, redactions }: { text: string; redactions: Redaction[] },
): ScannedFile {
  const sourceHash = hashText(file.text);
  const scanned: ScannedFile = {
    path: file.path,
    size: file.size,
    isTracked: file.isTracked,
    sourceHash,
    contentHash: sourceHash,
    tokens: 0,
    lineCount: countLines(file.text),
    redactions,
    hints: [],
  };
  if (file.reviewSkip !== undefined) scanned.reviewSkip = file.reviewSkip;
  const allowed = listAllowedLines(file.text, text, redactions);
  if (allowed.length > 0) scanned.allowedSecretLines = allowed;
  return scanned;
}

// A credential in test data or a translation catalogue is rarely a live one (and a translated
// "password" label often only looks like one): its hint ranks low, while the secret itself is
// still redacted and listed for the secrets gate.
const CREDENTIAL_SEVERITY_BY_KIND: Partial<Record<FileKind, Severity>> = {
  test: 'low',
  fixture: 'low',
  translation: 'info',
};

function hintsFromRedactions(path: string, text: string, redactions: Redaction[]): SecurityHint[] {
  if (redactions.length === 0) return [];
  const lines = text.split('\n');
  const severity = CREDENTIAL_SEVERITY_BY_KIND[classifyFile(path)] ?? 'high';
  return redactions.map((redaction) => ({
    ruleId: 'secret/hardcoded-credential',
    category: 'hardcoded-credential',
    severity: isLowSeverityRule(redaction.rule) ? 'low' : severity,
    path,
    line: redaction.line,
    excerpt: excerptOf(lines[redaction.line - 1] ?? '', redaction.placeholder),
    message: `Hard-coded credential (${redaction.rule}), redacted before any model sees it`,
  }));
}

/** `oy:allow` (optionally `oy:allow secret`) anywhere on the line, in whatever comment syntax the file uses. */
export const ALLOW_MARKER = /\boy:allow\b/;

/**
 * The secrets' lines that carry an allow marker outside the secret itself (looked for in the
 * redacted text, so a value cannot allow itself), each with the digest of the line as read.
 */
export function listAllowedLines(
  sourceText: string,
  redactedText: string,
  redactions: readonly Redaction[],
): AllowedLine[] {
  if (redactions.length === 0) return [];
  const redactedLines = redactedText.split('\n');
  const sourceLines = sourceText.split('\n');
  const secretLines = [...new Set(redactions.map((redaction) => redaction.line))];
  return secretLines.flatMap((line) =>
    ALLOW_MARKER.test(redactedLines[line - 1] ?? '')
      ? [{ line, digest: hashText(sourceLines[line - 1] ?? '') }]
      : [],
  );
}

function excerptOf(line: string, placeholder: string): string {
  return makeExcerpt(line, 0, line.length, Math.max(0, line.indexOf(placeholder)));
}

function chargeAllowance(lineTokens: number[], redactions: Redaction[]): number[] {
  for (const redaction of redactions) {
    const index = redaction.line - 1;
    lineTokens[index] = (lineTokens[index] ?? 0) + PLACEHOLDER_TOKEN_ALLOWANCE;
  }
  return lineTokens;
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Lines as an editor numbers them: a trailing newline does not start another line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}
