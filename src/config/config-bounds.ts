/**
 * Defaults and bounds of the numeric audit settings, shared by the config schema and the flag
 * table so a flag and its config key cannot disagree. No zod here: `oy --help` loads this file.
 */

export const REPORT_FORMATS = ['markdown', 'sarif', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface NumberBounds {
  min: number;
  max: number;
}

/** 1 MiB: larger files are almost always data or generated, and cost more than they tell. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** Provider tokens per map call; leaves room for the prompt and the answer in a 200k window. */
export const DEFAULT_CHUNK_TOKENS = 64_000;
/** Past this many chunks a run is too large to review without narrowing. */
export const DEFAULT_MAX_CHUNKS = 80;

export const AUDIT_BOUNDS = {
  /** 64 MiB: past it a file is never source worth reading. */
  maxFileBytes: { min: 1, max: 64 * 1024 * 1024 },
  /** Below 1000 tokens a chunk holds too little to judge; 2M is past every context window. */
  chunkTokens: { min: 1000, max: 2_000_000 },
  maxChunks: { min: 1, max: 100_000 },
} as const satisfies Record<string, NumberBounds>;
