import path from 'node:path';
import { isSecretBearingFile } from '../../../safety/secret-files.js';
import type { ConfinedPath } from './confine-path.js';
import type { SearchPattern } from './compile-search-pattern.js';
import { loadWalkRules } from './load-walk-rules.js';
import { WorkerTimeout } from '../deadline-worker.js';
import { createMatchWorker, type MatchWorker } from './match-worker.js';
import { MAX_TEXT_FILE_BYTES, readTextFile } from './read-text-file.js';
import { walkWorkspace, type WalkEntry } from './walk-workspace.js';
import { createGlobFilter } from './create-glob-filter.js';

/** Bytes one search reads at most: a large repository's worth of text, bounded in time. */
export const MAX_SEARCH_BYTES = 100 * 1024 * 1024;
/** Wall time one search may spend matching: a pathological regex is stopped here. */
export const SEARCH_TIME_BUDGET_MS = 20_000;
/** Secret-bearing paths named in a result; the rest are only counted. */
const MAX_NAMED_SECRET_FILES = 20;

export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

export interface SearchOutcome {
  matches: SearchMatch[];
  filesSearched: number;
  /** True when `limit` matches were found and more files or lines remained. */
  hitLimit: boolean;
  skipped: { binary: number; too_large: number; unreadable: number; links: number };
  secretFiles: string[];
  secretFileCount: number;
  /** Why the search stopped before covering everything, when it did. */
  stopped?: string;
}

export interface SearchRequest {
  target: ConfinedPath;
  isFile: boolean;
  pattern: SearchPattern;
  glob?: string | undefined;
  limit: number;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  now(): number;
  /** The session's redactor: each file is redacted before matching, so no line is cut mid-secret. */
  redact(text: string): string;
}

/**
 * Searches the text files under a confined folder (or one file) line by line, honouring
 * .gitignore, never following links, skipping binary, oversized and secret-bearing files.
 */
export async function searchWorkspace(request: SearchRequest): Promise<SearchOutcome> {
  const outcome: SearchOutcome = {
    matches: [],
    filesSearched: 0,
    hitLimit: false,
    skipped: { binary: 0, too_large: 0, unreadable: 0, links: 0 },
    secretFiles: [],
    secretFileCount: 0,
  };
  const includes = createGlobFilter(request.glob);
  const worker = createMatchWorker(request.pattern);
  const deadline = request.now() + SEARCH_TIME_BUDGET_MS;
  let bytesRead = 0;
  try {
    for await (const entry of entriesOf(request)) {
      if (request.signal.aborted) return { ...outcome, stopped: 'cancelled by the user' };
      if (entry.kind === 'link') outcome.skipped.links += 1;
      if (entry.kind !== 'file' || !includes(entry.path)) continue;
      if (outcome.matches.length >= request.limit) {
        outcome.hitLimit = true;
        break;
      }
      if (isSecretBearingFile(entry.path)) {
        outcome.secretFileCount += 1;
        if (outcome.secretFiles.length < MAX_NAMED_SECRET_FILES)
          outcome.secretFiles.push(entry.path);
        continue;
      }
      if (bytesRead >= MAX_SEARCH_BYTES) {
        outcome.stopped = `read the ${MAX_SEARCH_BYTES / (1024 * 1024)} MiB a search may read; narrow path or glob`;
        break;
      }
      const file = await readTextFile(
        path.join(request.target.realRoot, entry.path),
        MAX_TEXT_FILE_BYTES,
      );
      if (!file.ok) {
        countSkip(outcome, file.problem);
        continue;
      }
      bytesRead += file.bytes;
      outcome.filesSearched += 1;
      const remaining = request.limit - outcome.matches.length;
      const text = request.redact(file.text);
      const stopped = await matchFile(worker, text, remaining + 1, deadline - request.now());
      if (typeof stopped === 'string') {
        outcome.stopped = stopped;
        break;
      }
      for (const [line, text] of stopped.slice(0, remaining))
        outcome.matches.push({ path: entry.path, line, text });
      if (stopped.length > remaining) {
        outcome.hitLimit = true;
        break;
      }
    }
  } finally {
    await worker.close();
  }
  return outcome;
}

async function matchFile(
  worker: MatchWorker,
  text: string,
  maxHits: number,
  timeLeftMs: number,
): Promise<Awaited<ReturnType<MatchWorker['match']>> | string> {
  const tooSlow = `matching took more than ${SEARCH_TIME_BUDGET_MS / 1000} s (a regex with nested repetition can backtrack forever); simplify the pattern or narrow path or glob`;
  if (timeLeftMs <= 0) return tooSlow;
  try {
    return await worker.match(text, maxHits, timeLeftMs);
  } catch (error) {
    if (error instanceof WorkerTimeout) return tooSlow;
    throw error;
  }
}

async function* entriesOf(request: SearchRequest): AsyncGenerator<WalkEntry> {
  const { target } = request;
  if (request.isFile) {
    yield { path: target.walkPath, kind: 'file', depth: 0 };
    return;
  }
  const rules = await loadWalkRules(target.realRoot, target.walkPath, request.env);
  yield* walkWorkspace({
    realRoot: target.realRoot,
    start: target.walkPath,
    rules,
    maxDepth: Number.POSITIVE_INFINITY,
    signal: request.signal,
  });
}

function countSkip(outcome: SearchOutcome, problem: string): void {
  if (problem === 'binary' || problem === 'invalid-utf8') outcome.skipped.binary += 1;
  else if (problem === 'too-large') outcome.skipped.too_large += 1;
  else outcome.skipped.unreadable += 1;
}
