import { UsageError } from '../../shared/errors.js';
import { openBlobReader, type BlobReader } from '../../shared/git/open-blob-reader.js';
import { listCommits } from '../../shared/git/list-commits.js';
import {
  isRegularFileMode,
  readCommitChanges,
  type TreeChange,
} from '../../shared/git/read-commit-changes.js';
import { resolveCommit } from '../../shared/git/resolve-commit.js';
import { runGit } from '../../shared/git/run-git.js';
import { isSecretBearingFile } from '../../safety/secret-files.js';
import { BINARY_SNIFF_BYTES } from '../collect/check-content.js';
import { findNameSkip } from '../collect/default-skips.js';
import type { HistoryReport, HistorySecret } from '../types.js';
import { createHistoryPathFilter } from './create-history-path-filter.js';
import { findAddedLines } from './find-added-lines.js';
import { findAddedSecrets, type Redact } from './find-added-secrets.js';
import { LineSetCache } from './line-set-cache.js';

export interface HistoryScanOptions {
  /** Absolute real path of the workspace. */
  root: string;
  /** From `prepareGitEnvironment`. */
  gitEnv: Record<string, string>;
  /** `--diff <ref>`: the commits of `<ref>..HEAD`; null: every commit reachable from HEAD. */
  since: string | null;
  /** Larger blobs are not read, as larger files are not in the work tree. */
  maxFileBytes: number;
  include: readonly string[];
  exclude: readonly string[];
  redact: Redact;
  onProgress?: (done: number, total: number, bytes: number) => void;
}

/** A history secret and whether its line carries an `oy:allow` marker (the gate decides). */
export interface FoundHistorySecret extends HistorySecret {
  isAllowed: boolean;
}

export interface HistoryScanResult {
  report: HistoryReport;
  found: FoundHistorySecret[];
}

// Blobs in flight to cat-file at once: enough to keep git busy while this thread scans.
const READ_AHEAD_BLOBS = 64;
// Recently scanned versions' lines kept for the next change to the same file (characters).
const LINE_CACHE_CHARS = 32 * 1024 * 1024;

interface BlobJob {
  path: string;
  blob: string;
  parentBlobs: string[];
}

/**
 * The secrets on the lines each commit added, by git plumbing alone (`rev-list`, `diff-tree`,
 * `cat-file`): no work-tree file, filter, textconv, diff driver or hook. Commits are walked
 * parents first and each blob is scanned once, when first met: later commits holding the same
 * blob add nothing new. Values never leave this function; only rule, commit, path and line do.
 */
export async function scanHistory(options: HistoryScanOptions): Promise<HistoryScanResult> {
  const { root, gitEnv: env } = options;
  const prefix = await readWorkspacePrefix(root, env, options.since);
  const exclude = options.since === null ? [] : [await resolveSince(root, env, options.since)];
  const commits = await listCommits(root, env, { exclude });
  const shallow = await runGit(['rev-parse', '--is-shallow-repository'], { cwd: root, env });
  const report: HistoryReport = {
    scope: options.since === null ? 'all' : 'range',
    ref: options.since,
    commits: commits.length,
    blobs: 0,
    bytes: 0,
    skippedByReason: {},
    isShallow: shallow.ok && shallow.stdout.toString('utf8').trim() === 'true',
    secrets: [],
  };
  const found: FoundHistorySecret[] = [];
  if (commits.length === 0) return { report, found };
  const skip = (reason: string): void => {
    report.skippedByReason[reason] = (report.skippedByReason[reason] ?? 0) + 1;
  };
  const selectPath = createHistoryPathFilter({
    prefix,
    include: options.include,
    exclude: options.exclude,
  });
  const seen = new Set<string>();
  const secretFiles = new Set<string>();
  const reader = openBlobReader(root, env);
  const scanner = new BlobScanner(reader, options.maxFileBytes, options.redact);
  let done = 0;
  options.onProgress?.(0, commits.length, 0);
  try {
    for await (const { commit, changes } of readCommitChanges(root, env, commits)) {
      const jobs: BlobJob[] = [];
      const fromCommit: FoundHistorySecret[] = [];
      for (const change of changes) {
        const job = selectChange(change, selectPath, skip);
        if (job === null) continue;
        if (isSecretBearingFile(job.path) && !secretFiles.has(job.path)) {
          secretFiles.add(job.path);
          fromCommit.push({
            rule: 'secret-file',
            commit,
            path: job.path,
            line: null,
            isAllowed: false,
          });
        }
        // Met before: every line it holds was scanned then, or was in the version before it.
        if (seen.has(job.blob)) continue;
        const nameSkip = findNameSkip(job.path);
        if (nameSkip !== undefined) {
          skip(nameSkip.reason);
          continue;
        }
        seen.add(job.blob);
        jobs.push(job);
      }
      for (let start = 0; start < jobs.length; start += READ_AHEAD_BLOBS) {
        const batch = jobs.slice(start, start + READ_AHEAD_BLOBS);
        const scans = batch.map((job) => scanner.scan(job));
        // One failure (git died) fails them all: the first is thrown, the rest must not be unhandled.
        for (const pending of scans) pending.catch(() => undefined);
        for (const [index, scan] of scans.entries()) {
          const outcome = await scan;
          const job = batch[index];
          if (job === undefined) continue;
          if ('skipped' in outcome) {
            skip(outcome.skipped);
            continue;
          }
          report.blobs++;
          report.bytes += outcome.bytes;
          for (const secret of outcome.secrets)
            fromCommit.push({ ...secret, commit, path: job.path });
        }
      }
      found.push(...fromCommit.sort(compareInCommit));
      options.onProgress?.(++done, commits.length, report.bytes);
    }
  } finally {
    await reader.close();
  }
  report.secrets = found.map(({ rule, commit, path, line }) => ({ rule, commit, path, line }));
  return { report, found };
}

/** The blob a change brings, when it is a regular file inside the workspace the rules let in. */
function selectChange(
  change: TreeChange,
  selectPath: ReturnType<typeof createHistoryPathFilter>,
  skip: (reason: string) => void,
): BlobJob | null {
  // Deleted, or a symlink or submodule: no lines of text were added.
  if (!isRegularFileMode(change.mode)) return null;
  const verdict = selectPath(change.path);
  if (verdict.kind === 'outside') return null;
  if (verdict.kind === 'skip') {
    skip(verdict.reason);
    return null;
  }
  return { path: verdict.path, blob: change.blob, parentBlobs: change.parentBlobs };
}

function compareInCommit(a: FoundHistorySecret, b: FoundHistorySecret): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0);
}

type BlobOutcome =
  { skipped: string } | { bytes: number; secrets: Omit<FoundHistorySecret, 'commit' | 'path'>[] };

/** Reads a new blob and its parents' versions, and finds the secrets on its added lines. */
class BlobScanner {
  readonly #lineSets = new LineSetCache(LINE_CACHE_CHARS);

  constructor(
    readonly reader: BlobReader,
    readonly maxBytes: number,
    readonly redact: Redact,
  ) {}

  async scan(job: BlobJob): Promise<BlobOutcome> {
    // Issued together, so git answers them while earlier blobs are scanned.
    const [read, previous] = await Promise.all([
      this.reader.read(job.blob, this.maxBytes),
      Promise.all(job.parentBlobs.map((blob) => this.#readLineSet(blob))),
    ]);
    if (read.kind !== 'blob') return { skipped: read.kind };
    const { bytes } = read;
    if (bytes.length === 0) return { bytes: 0, secrets: [] };
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { skipped: 'binary' };
    // Invalid UTF-8 is read lossily: a secret is ASCII, whatever the bytes around it.
    const text = bytes.toString('utf8');
    const lines = text.split('\n');
    this.#lineSets.set(job.blob, new Set(lines), text.length);
    const known = previous.filter((set): set is ReadonlySet<string> => set !== null);
    // A version that cannot be read (too large, binary, missing) proves nothing old: all is new.
    const added = findAddedLines(lines, known.length === previous.length ? known : []);
    try {
      return { bytes: bytes.length, secrets: findAddedSecrets(lines, added, this.redact) };
    } catch {
      // Fail closed in the count: the report says this many versions could not be scanned.
      return { skipped: 'redaction-failed' };
    }
  }

  async #readLineSet(blob: string): Promise<ReadonlySet<string> | null> {
    const cached = this.#lineSets.get(blob);
    if (cached !== undefined) return cached;
    const read = await this.reader.read(blob, this.maxBytes);
    if (read.kind !== 'blob' || read.bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      return null;
    }
    const text = read.bytes.toString('utf8');
    const lines = new Set(text.split('\n'));
    this.#lineSets.set(blob, lines, text.length);
    return lines;
  }
}

/** The workspace's folder in its work tree, or a UsageError outside one. */
async function readWorkspacePrefix(
  root: string,
  env: Record<string, string>,
  since: string | null,
): Promise<string> {
  const prefix = await runGit(['rev-parse', '--show-prefix'], { cwd: root, env });
  if (prefix.ok) return prefix.stdout.toString('utf8').replace(/\n$/, '');
  const flag = since === null ? '--history' : '--diff';
  throw new UsageError(`\`${flag}\` needs a git work tree, and \`${root}\` is not in one`, {
    hint: `run oy inside a git checkout, or drop ${flag}`,
  });
}

async function resolveSince(root: string, env: Record<string, string>, ref: string) {
  const commit = await resolveCommit(root, env, ref);
  if (commit !== null) return commit;
  throw new UsageError(`\`--diff\` needs a git ref that names a commit, got \`${ref}\``, {
    hint: 'name a branch, tag or commit this clone has (git branch -a lists them)',
  });
}
