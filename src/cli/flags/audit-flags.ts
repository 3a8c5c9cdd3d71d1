import {
  AUDIT_BOUNDS,
  DEFAULT_CHUNK_TOKENS,
  DEFAULT_MAX_CHUNKS,
  DEFAULT_MAX_FILE_BYTES,
  REPORT_FORMATS,
} from '../../config/config-bounds.js';
import type { ConfigFile } from '../../config/config-schema.js';
import { SEVERITIES } from '../../audit/types.js';
import { AUDIT_SCOPES, DEFAULT_AUDIT_SCOPE } from '../../audit/scope/audit-scope.js';
import { formatDuration } from '../../shared/text/parse-duration.js';
import type { FlagSpec } from './flag-spec.js';

/** Map calls in flight at once by default (README.md "Options"). */
export const DEFAULT_CONCURRENCY = 8;
/** More calls at once than any provider's rate limit allows a single key. */
const MAX_CONCURRENCY = 64;
/** Anthropic ends a batch 24 hours after it was made, so waiting longer gains nothing. */
export const DEFAULT_BATCH_TIMEOUT_MS = 24 * 3_600_000;
/** A second: anything shorter cannot see even one poll through. */
const MIN_BATCH_TIMEOUT_MS = 1_000;
/** Far past any real run's cost; a typo like `5000000` is refused rather than trusted. */
const MAX_COST_USD = 1_000_000;

/** The flags of `oy audit`; parsing, help and the config layer all come from this table. */
export const AUDIT_FLAGS: readonly FlagSpec[] = [
  {
    name: 'out',
    kind: 'text',
    placeholder: '<file>',
    example: '--out report.md',
    isStdoutAllowed: true,
    help: 'Report file inside the workspace; - writes the report to stdout',
    defaultText: 'ISSUES.md, oy.sarif or oy-audit.json by format',
  },
  {
    name: 'format',
    kind: 'choice',
    placeholder: '<format>',
    example: '--format sarif',
    choices: REPORT_FORMATS,
    configKey: 'audit.format',
    help: "Report format: markdown, sarif or json (else --out's extension decides)",
    defaultText: 'markdown',
  },
  {
    name: 'manifest',
    kind: 'text',
    placeholder: '<file>',
    example: '--manifest oy-manifest.json',
    help: 'Also write the coverage ledger (JSON) to this file',
  },
  {
    name: 'include',
    kind: 'text',
    placeholder: '<glob>',
    example: "--include 'src/**'",
    isRepeatable: true,
    configKey: 'audit.include',
    help: 'Only audit files matching this glob (repeatable)',
  },
  {
    name: 'exclude',
    kind: 'text',
    placeholder: '<glob>',
    example: "--exclude '**/*.test.ts'",
    isRepeatable: true,
    configKey: 'audit.exclude',
    help: 'Leave out files matching this glob (repeatable)',
  },
  {
    name: 'diff',
    kind: 'text',
    placeholder: '<ref>',
    example: '--diff origin/main',
    isRef: true,
    help: 'Only audit files changed since this git ref; also scan its commits for secrets',
  },
  {
    name: 'history',
    kind: 'switch',
    help: 'Also scan every commit reachable from HEAD for the secrets it added',
  },
  {
    name: 'max-file-bytes',
    kind: 'integer',
    placeholder: '<n>',
    example: '--max-file-bytes 2000000',
    bounds: AUDIT_BOUNDS.maxFileBytes,
    configKey: 'audit.maxFileBytes',
    help: 'Review no file larger than this (its secrets are still scanned)',
    defaultText: String(DEFAULT_MAX_FILE_BYTES),
  },
  {
    name: 'chunk-tokens',
    kind: 'integer',
    placeholder: '<n>',
    example: '--chunk-tokens 32000',
    bounds: AUDIT_BOUNDS.chunkTokens,
    configKey: 'audit.chunkTokens',
    help: 'Provider tokens per chunk',
    defaultText: String(DEFAULT_CHUNK_TOKENS),
  },
  {
    name: 'max-chunks',
    kind: 'integer',
    placeholder: '<n>',
    example: '--max-chunks 120',
    bounds: AUDIT_BOUNDS.maxChunks,
    configKey: 'audit.maxChunks',
    help: 'Refuse runs that need more chunks than this',
    defaultText: String(DEFAULT_MAX_CHUNKS),
  },
  {
    name: 'scope',
    kind: 'choice',
    placeholder: '<scope>',
    example: '--scope all',
    choices: AUDIT_SCOPES,
    help: 'What the model reviews: shipping (tests, fixtures, docs, translations and examples get the deterministic checks only) or all',
    defaultText: DEFAULT_AUDIT_SCOPE,
  },
  {
    name: 'riskiest',
    kind: 'integer',
    placeholder: '<n>',
    example: '--riskiest 40',
    bounds: { min: 1, max: AUDIT_BOUNDS.maxChunks.max },
    help: 'Review only the n riskiest chunks; the rest are skipped(budget)',
  },
  {
    name: 'shard',
    kind: 'text',
    placeholder: '<k/n>',
    example: '--shard 2/3',
    help: 'Review only shard k of n (a share of the chunks) and write a JSON shard report for oy report merge',
  },
  { name: 'dry-run', kind: 'switch', help: 'Print the plan (files, chunks, tokens) and stop' },
  {
    name: 'offline',
    kind: 'switch',
    help: 'Deterministic checks only; no model is contacted (the default with no model)',
  },
  {
    name: 'concurrency',
    kind: 'integer',
    placeholder: '<n>',
    example: '--concurrency 4',
    bounds: { min: 1, max: MAX_CONCURRENCY },
    help: 'Model calls in flight at once',
    defaultText: String(DEFAULT_CONCURRENCY),
  },
  {
    name: 'batch',
    kind: 'switch',
    help: 'Send the map calls as one Anthropic Message Batch at half the price; waits for it, and a rerun picks up an interrupted one',
  },
  {
    name: 'batch-timeout',
    kind: 'duration',
    placeholder: '<duration>',
    example: '--batch-timeout 2h',
    bounds: { min: MIN_BATCH_TIMEOUT_MS, max: DEFAULT_BATCH_TIMEOUT_MS },
    help: 'How long --batch waits for the batch to end (30m, 2h, 1h30m)',
    defaultText: formatDuration(DEFAULT_BATCH_TIMEOUT_MS),
  },
  {
    name: 'max-cost',
    kind: 'decimal',
    placeholder: '<usd>',
    example: '--max-cost 2.50',
    noun: 'an amount of US dollars',
    bounds: { min: 0, max: MAX_COST_USD },
    exclusiveMin: true,
    help: 'Refuse to start above this estimated cost; stop calling at it',
  },
  {
    name: 'fail-on',
    kind: 'choice',
    placeholder: '<severity>',
    example: '--fail-on high',
    choices: SEVERITIES,
    help: 'Exit 3 when a finding or committed secret is at or above: critical, high, medium, low, info',
  },
  {
    name: 'baseline',
    kind: 'text',
    placeholder: '<file>',
    example: '--baseline .oy/baseline.json',
    help: 'Suppress findings whose fingerprint this baseline lists',
  },
  {
    name: 'write-baseline',
    kind: 'text',
    placeholder: '<file>',
    example: '--write-baseline .oy/baseline.json',
    help: "Write this run's finding fingerprints as a baseline",
  },
  {
    name: 'min-coverage',
    kind: 'decimal',
    placeholder: '<ratio>',
    example: '--min-coverage 0.9',
    noun: 'a share of the files',
    bounds: { min: 0, max: 1 },
    help: 'Exit 4 when less than this share (0 to 1) of files was reviewed',
  },
  {
    name: 'allow-partial',
    kind: 'switch',
    help: 'Exit 0 even when some chunks failed for a transient reason',
  },
  {
    name: 'force',
    kind: 'switch',
    help: 'Overwrite an existing output file that oy did not write',
  },
  { name: 'no-cache', kind: 'switch', help: 'Do not read or write the scan and review caches' },
  {
    name: 'no-submodules',
    kind: 'switch',
    help: 'Leave out the files of checked-out submodules (each submodule counts as not reviewed)',
  },
];

/**
 * Every audit config key names the flag that sets it, or null when only a config file can. The
 * compiler demands an entry for a new key; a test checks each named flag carries that key.
 */
export const AUDIT_CONFIG_FLAGS: Record<keyof NonNullable<ConfigFile['audit']>, string | null> = {
  include: 'include',
  exclude: 'exclude',
  // Focus words are positional: `oy audit . auth`.
  focus: null,
  format: 'format',
  chunkTokens: 'chunk-tokens',
  maxChunks: 'max-chunks',
  maxFileBytes: 'max-file-bytes',
  tokenHeadroom: null,
  encoding: null,
};
