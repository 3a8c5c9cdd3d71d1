import { afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectCandidates } from '../../../src/audit/collect/collect-candidates.js';
import type { CollectOptions, CollectResult } from '../../../src/audit/collect/collect-types.js';

export const MIB = 1024 * 1024;

/** A fresh, real (symlink-free) temporary directory, removed by the returned cleanup. */
export function makeTempDir(prefix = 'oy-collect-'): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/** Temporary directories for one test file, removed after each test. */
export function useTempDirs(prefix?: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) removeDir(dir);
  });
  return () => {
    const dir = makeTempDir(prefix);
    dirs.push(dir);
    return dir;
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes files (POSIX relative paths) under `root`, creating directories as needed. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [relPath, content] of Object.entries(files)) {
    const target = path.join(root, relPath);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/** Runs real git in `cwd` with a fixed identity; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

export function gitInit(root: string): void {
  git(root, 'init', '-q');
}

/** Collects with defaults; the test setup has already pointed HOME and XDG_* at temp dirs. */
export function collect(
  root: string,
  overrides: Partial<CollectOptions> = {},
): Promise<CollectResult> {
  return collectCandidates({
    root,
    include: [],
    exclude: [],
    maxFileBytes: MIB,
    env: process.env,
    ...overrides,
  });
}

/** An environment in which `git` cannot be found, so the collector must walk. */
export function envWithoutGit(emptyDir: string): Record<string, string | undefined> {
  return { ...process.env, PATH: emptyDir };
}

/**
 * "skipped(<reason>)" for a ledger path (not read), "candidate" for a file to review,
 * "secrets-only(<reason>)" for one read for its secrets only, undefined when absent.
 */
export function statusOf(result: CollectResult, relPath: string): string | undefined {
  const candidate = result.candidates.find((each) => each.path === relPath);
  if (candidate !== undefined) {
    return candidate.reviewSkip === undefined
      ? 'candidate'
      : `secrets-only(${candidate.reviewSkip.reason})`;
  }
  const entry = result.ledger.find((line) => line.path === relPath);
  return entry === undefined ? undefined : `${entry.status}(${String(entry.reason)})`;
}

/** The files the model may review (candidates with no review skip). */
export function candidatePaths(result: CollectResult): string[] {
  return result.candidates
    .filter((candidate) => candidate.reviewSkip === undefined)
    .map((candidate) => candidate.path);
}

/** Every file that will be read: for review, or for its secrets only. */
export function readPaths(result: CollectResult): string[] {
  return result.candidates.map((candidate) => candidate.path);
}
