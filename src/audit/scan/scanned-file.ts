import type { Redaction, SecurityHint } from '../types.js';

/** A collected file after redaction, indexing and counting; its text is not kept. */
export interface ScannedFile {
  path: string;
  size: number;
  isTracked: boolean;
  /** sha256 (hex) of the file as read, so a later stage can tell it has not changed since. */
  sourceHash: string;
  /** sha256 (hex) of the redacted text. */
  contentHash: string;
  /** Tokenizer tokens of the redacted text, with an allowance per placeholder. */
  tokens: number;
  lineCount: number;
  lineTokens?: number[];
  redactions: Redaction[];
  /** Lines holding a redacted secret and an `oy:allow` marker: the author accepted that secret. */
  allowedSecretLines?: number[];
  hints: SecurityHint[];
}
