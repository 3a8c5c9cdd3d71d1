import type { ReportFormat, TokenEncoding } from '../config/config-schema.js';

/** Everything `runAudit` needs, already validated by the command layer. */
export interface AuditOptions {
  /** Absolute real path of the workspace. */
  root: string;
  format: ReportFormat;
  /** `--out` as given (resolved against the workspace), or null for the format's default name. */
  out: string | null;
  manifest: string | null;
  include: string[];
  exclude: string[];
  focus: string[];
  diffRef: string | null;
  maxFileBytes: number;
  chunkTokens: number;
  maxChunks: number;
  /** Tokenizer-to-provider headroom factor; 1.3 when the provider is Claude or unknown. */
  tokenHeadroom: number;
  encoding: TokenEncoding;
  isDryRun: boolean;
  /** The configured model, or null for the offline report. */
  model: string | null;
  /** Directory for the scan cache, or null for no cache. */
  cacheDir: string | null;
  /** The command line that reproduces this run, for the report. */
  command: string;
  /** Files read, redacted, indexed and counted at once. */
  scanConcurrency: number;
  /** The caller's environment, handed to git (HOME for its global excludes and safe.directory). */
  env: Readonly<Record<string, string | undefined>>;
  onProgress?: (event: AuditProgress) => void;
  now?: () => Date;
}

export type AuditStage = 'collect' | 'scan' | 'chunk' | 'report';

/** Progress for the terminal: the core never prints, it reports. */
export interface AuditProgress {
  stage: AuditStage;
  done: number;
  total: number;
  message?: string;
}
