import { createConcurrencyLimit } from '../collect/limit-concurrency.js';
import { checkCandidate, readCandidateBytes } from '../collect/read-candidate.js';
import type { CandidateFile, CollectedFile, LedgerEntry, Redaction, ReviewSkip } from '../types.js';
import { ownOutputEntry } from '../outputs/own-output-entry.js';
import { hasOutputSeal } from '../outputs/output-seal.js';
import { isSealedFile } from '../outputs/is-sealed-file.js';
import { skipEntry } from '../collect/skip-entry.js';
import { createRedactor } from '../../safety/redact/redactor.js';
import { ScanCache } from './scan-cache.js';
import { scanLargeFile } from './scan-large-file.js';
import type { ScanFailure, ScanPool } from './scan-pool.js';
import type { ScannedFile } from './scanned-file.js';
import { RedactionFailed, scanText, type ScanTools } from './scan-text.js';

export interface ScanFilesOptions {
  maxFileBytes: number;
  concurrency: number;
  cache: ScanCache;
  tools: ScanTools;
  /** A redactor that keeps its numbering across calls, for the windows of one large file; the real one by default. */
  createRedactor?: () => { redact(text: string): { text: string; redactions: Redaction[] } };
  /** This user's output seal key: a file sealed with it is oy's own output, not audited. */
  sealKey?: Uint8Array;
  /** Worker threads that take files while the main thread reads; absent for a small tree. */
  pool?: ScanPool;
  onFileDone?: (done: number, total: number) => void;
}

export interface ScanResult {
  /** Files the model may review, in candidate (path) order. */
  files: ScannedFile[];
  /**
   * Files read for their secrets only (each with its `reviewSkip`, and a `skipped` line in the
   * ledger): their committed secrets are reported and gate like any other.
   */
  secretsOnly: ScannedFile[];
  /** Files that could not be read, were not reviewed, or failed redaction. */
  ledger: LedgerEntry[];
}

/**
 * Reads, redacts, indexes and counts every candidate; a file the model will not review is still
 * read and redacted for its secrets. A file that fails redaction is never sent anywhere.
 */
export async function scanFiles(
  candidates: CandidateFile[],
  options: ScanFilesOptions,
): Promise<ScanResult> {
  const limit = createConcurrencyLimit(options.concurrency);
  const outcomes: (ScannedFile | LedgerEntry)[] = new Array(candidates.length);
  let done = 0;
  await Promise.all(
    candidates.map((candidate, index) =>
      limit(async () => {
        outcomes[index] = await scanCandidate(candidate, options);
        options.onFileDone?.(++done, candidates.length);
      }),
    ),
  );
  const result: ScanResult = { files: [], secretsOnly: [], ledger: [] };
  for (const outcome of outcomes) {
    if ('status' in outcome) result.ledger.push(outcome);
    else if (outcome.reviewSkip === undefined) result.files.push(outcome);
    else {
      result.secretsOnly.push(outcome);
      result.ledger.push(secretsOnlyEntry({ ...outcome, reviewSkip: outcome.reviewSkip }));
    }
  }
  return result;
}

async function scanCandidate(
  candidate: CandidateFile,
  options: ScanFilesOptions,
): Promise<ScannedFile | LedgerEntry> {
  const { cache, tools } = options;
  const fit = (scanned: Omit<ScannedFile, 'size' | 'isTracked'>, size: number) =>
    fitToCandidate(scanned, candidate, size);
  // A file listed with the identity it had when last read has the bytes it had then: no read.
  const known =
    candidate.identity === undefined
      ? undefined
      : cache.findUnread(
          candidate.path,
          candidate.identity,
          tools.needsLineTokens,
          tools.needsExactTokens,
        );
  if (known !== undefined && 'skip' in known) {
    return skipEntry(candidate.path, known.skip.reason, known.skip.detail);
  }
  if (known !== undefined && isUsable(known.scanned, candidate)) {
    return fit(known.scanned, candidate.size);
  }
  const read = readCandidateBytes(candidate, options.maxFileBytes);
  if ('entry' in read) {
    return read.entry.reason === 'too-large' ? scanLarge(candidate, options) : read.entry;
  }
  // Only a seal made with this user's key: a file that merely looks like a report is audited.
  if (hasOutputSeal(read.bytes, options.sealKey)) return ownOutputEntry(candidate.path);
  // The same bytes always pass the same content checks and decode to the same text, so a warm
  // run finds its entry by the bytes and neither checks nor decodes them again. A file read for
  // its secrets only because of its path has entries of its own.
  const key = ScanCache.keyFor(
    candidate.reviewSkip === undefined ? candidate.path : `${SECRETS_ONLY_KEY}${candidate.path}`,
    read.bytes,
  );
  const cached = cache.get(key, tools.needsLineTokens, tools.needsExactTokens);
  if (cached && isUsable(cached, candidate)) {
    cache.noteRead(candidate.path, read.identity, key);
    return fit(cached, read.bytes.length);
  }
  const { file } = checkCandidate(candidate, read.bytes);
  const outcome = (await options.pool?.scan(file)) ?? scanHere(file, tools);
  // Fail closed: a file whose scan threw is never chunked, so its text cannot reach a model.
  if ('message' in outcome) {
    return { path: file.path, status: 'failed', reason: outcome.reason, detail: outcome.message };
  }
  const stored: ScannedFile =
    candidate.reviewSkip === undefined ? outcome : { ...outcome, isSecretsOnly: true };
  cache.set(key, stored);
  cache.noteRead(candidate.path, read.identity, key);
  return fit(stored, read.bytes.length);
}

/** Marks a cache key as a secrets-only scan, so it is never taken for a file's full scan. */
const SECRETS_ONLY_KEY = 'secrets-only\0';

/**
 * Whether a remembered scan serves this candidate: a secrets-only scan (made while the path
 * kept the file from review) does not serve a file the model now reviews.
 */
function isUsable(scanned: Pick<ScannedFile, 'isSecretsOnly'>, candidate: CandidateFile): boolean {
  return candidate.reviewSkip !== undefined || scanned.isSecretsOnly !== true;
}

/** A remembered scan as this run's candidate: its size and tracking, and its path's own review skip. */
function fitToCandidate(
  scanned: Omit<ScannedFile, 'size' | 'isTracked'>,
  candidate: CandidateFile,
  size: number,
): ScannedFile {
  const fitted: ScannedFile = { ...scanned, size, isTracked: candidate.isTracked };
  // A path-based skip wins over the content's, and a full scan's hints are not reported.
  return candidate.reviewSkip === undefined
    ? fitted
    : { ...fitted, hints: [], reviewSkip: candidate.reviewSkip };
}

/** The ledger line of a file read for its secrets only: why it was not reviewed, and where the scan stopped. */
function secretsOnlyEntry(scanned: ScannedFile & { reviewSkip: ReviewSkip }): LedgerEntry {
  const { reason, detail } = scanned.reviewSkip;
  const cut =
    scanned.secretsScannedBytes === undefined
      ? undefined
      : `secrets scanned in the first ${scanned.secretsScannedBytes} bytes only`;
  const details = [detail, cut].filter((part) => part !== undefined);
  return skipEntry(scanned.path, reason, details.length > 0 ? details.join('; ') : undefined);
}

function scanLarge(candidate: CandidateFile, options: ScanFilesOptions): ScannedFile | LedgerEntry {
  if (isSealedFile(candidate.absolutePath, options.sealKey)) return ownOutputEntry(candidate.path);
  // Listed under the limit, grown since: too large all the same.
  const reviewSkip = candidate.reviewSkip ?? {
    reason: 'too-large' as const,
    detail: `over the limit of ${options.maxFileBytes} bytes`,
  };
  const redactor = (options.createRedactor ?? createRedactor)();
  let result;
  try {
    result = scanLargeFile({ ...candidate, reviewSkip }, (text) => redactor.redact(text));
  } catch (error) {
    return {
      path: candidate.path,
      status: 'failed',
      reason: 'redaction',
      detail: (error as Error).message,
    };
  }
  if ('entry' in result) return result.entry;
  const key = ScanCache.keyFor(
    `${SECRETS_ONLY_KEY}${candidate.path}`,
    `identity:${result.identity.key}`,
  );
  options.cache.set(key, result.scanned);
  options.cache.noteRead(candidate.path, result.identity, key);
  return result.scanned;
}

function scanHere(file: CollectedFile, tools: ScanTools): ScannedFile | ScanFailure {
  try {
    return scanText(file, tools);
  } catch (error) {
    const reason = error instanceof RedactionFailed ? 'redaction' : 'scan';
    return { reason, message: (error as Error).message };
  }
}
