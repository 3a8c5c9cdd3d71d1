import { createConcurrencyLimit } from '../collect/limit-concurrency.js';
import { checkCandidate, readCandidateBytes } from '../collect/read-candidate.js';
import type { CandidateFile, CollectedFile, LedgerEntry } from '../types.js';
import { ownOutputEntry } from '../outputs/own-output-entry.js';
import { hasOutputSeal } from '../outputs/output-seal.js';
import { skipEntry } from '../collect/skip-entry.js';
import { ScanCache } from './scan-cache.js';
import type { ScanFailure, ScanPool } from './scan-pool.js';
import type { ScannedFile } from './scanned-file.js';
import { RedactionFailed, scanText, type ScanTools } from './scan-text.js';

export interface ScanFilesOptions {
  maxFileBytes: number;
  concurrency: number;
  cache: ScanCache;
  tools: ScanTools;
  /** This user's output seal key: a file sealed with it is oy's own output, not audited. */
  sealKey?: Uint8Array;
  /** Worker threads that take files while the main thread reads; absent for a small tree. */
  pool?: ScanPool;
  onFileDone?: (done: number, total: number) => void;
}

export interface ScanResult {
  /** In candidate (path) order. */
  files: ScannedFile[];
  /** Files that could not be read, were skipped by content, or failed redaction. */
  ledger: LedgerEntry[];
}

/** Reads, redacts, indexes and counts every candidate; a file that fails redaction is never sent anywhere. */
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
  const files: ScannedFile[] = [];
  const ledger: LedgerEntry[] = [];
  for (const outcome of outcomes) {
    if ('status' in outcome) ledger.push(outcome);
    else files.push(outcome);
  }
  return { files, ledger };
}

async function scanCandidate(
  candidate: CandidateFile,
  options: ScanFilesOptions,
): Promise<ScannedFile | LedgerEntry> {
  const { cache, tools } = options;
  // A file listed with the identity it had when last read has the bytes it had then: no read.
  const known =
    candidate.identity === undefined
      ? undefined
      : cache.findUnread(candidate.path, candidate.identity, tools.needsLineTokens);
  if (known !== undefined && 'skip' in known) {
    return skipEntry(candidate.path, known.skip.reason, known.skip.detail);
  }
  if (known !== undefined) {
    return { ...known.scanned, size: candidate.size, isTracked: candidate.isTracked };
  }
  const read = readCandidateBytes(candidate, options.maxFileBytes);
  if ('entry' in read) return read.entry;
  // Only a seal made with this user's key: a file that merely looks like a report is audited.
  if (hasOutputSeal(read.bytes, options.sealKey)) return ownOutputEntry(candidate.path);
  // The same bytes always pass the same content checks and decode to the same text, so a warm
  // run finds its entry by the bytes and neither checks nor decodes them again.
  const key = ScanCache.keyFor(candidate.path, read.bytes);
  const cached = cache.get(key, tools.needsLineTokens);
  if (cached) {
    cache.noteRead(candidate.path, read.identity, key);
    return { ...cached, size: read.bytes.length, isTracked: candidate.isTracked };
  }
  const checked = checkCandidate(candidate, read.bytes);
  if ('entry' in checked) {
    // The content checks decide from the bytes and the path alone: the same version, the same verdict.
    cache.noteSkip(candidate.path, read.identity, checked.skip);
    return checked.entry;
  }
  const { file } = checked;
  const outcome = (await options.pool?.scan(file)) ?? scanHere(file, tools);
  // Fail closed: a file whose scan threw is never chunked, so its text cannot reach a model.
  if ('message' in outcome) {
    return { path: file.path, status: 'failed', reason: outcome.reason, detail: outcome.message };
  }
  cache.set(key, outcome);
  cache.noteRead(candidate.path, read.identity, key);
  return outcome;
}

function scanHere(file: CollectedFile, tools: ScanTools): ScannedFile | ScanFailure {
  try {
    return scanText(file, tools);
  } catch (error) {
    const reason = error instanceof RedactionFailed ? 'redaction' : 'scan';
    return { reason, message: (error as Error).message };
  }
}
