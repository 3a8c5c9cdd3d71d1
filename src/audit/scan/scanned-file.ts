import type { Redaction, ReviewSkip, SecurityHint } from '../types.js';

/** A collected file after redaction, indexing and counting; its text is not kept. */
export interface ScannedFile {
  path: string;
  size: number;
  isTracked: boolean;
  /** sha256 (hex) of the file as read, so a later stage can tell it has not changed since. */
  sourceHash: string;
  /** sha256 (hex) of the redacted text. */
  contentHash: string;
  /**
   * Tokenizer tokens of the redacted text, with an allowance per placeholder; 0 when read for its
   * secrets only; an estimate when `isTokenEstimate`.
   */
  tokens: number;
  /**
   * `tokens` is an estimate (`estimateTokens`): the run's scope never sends this file to the model,
   * so only the plan shows its count. Never chunked; a run that may send it counts it again.
   */
  isTokenEstimate?: true;
  lineCount: number;
  lineTokens?: number[];
  redactions: Redaction[];
  /** Lines holding a redacted secret and an `oy:allow` marker: the author accepted that secret. */
  allowedSecretLines?: AllowedLine[];
  hints: SecurityHint[];
  /**
   * Why the model does not review it: only its secrets were scanned (no hints, no tokens). Set by
   * the content checks (generated, minified, binary, invalid UTF-8) or by its path or size.
   */
  reviewSkip?: ReviewSkip;
  /** Only the secret scan ran because of the file's path or size, whatever its content. */
  isSecretsOnly?: true;
  /** How far the secret scan read, when it stopped before the end (`SECRET_SCAN_MAX_BYTES`). */
  secretsScannedBytes?: number;
}

/** A line with an `oy:allow` marker and a secret on it. */
export interface AllowedLine {
  line: number;
  /**
   * sha256 (hex) of the line as read, so a `--diff` run can tell a line the change added from one
   * that was already there (`findAddedAllowLines`).
   */
  digest: string;
}
