import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { keepAbsolutePathEntries } from '../absolute-path-entries.js';
import { findOnPath } from '../find-on-path.js';
import { buildHardenedGitArgs, HARDENED_GIT_VARIABLES } from './git-hardening.js';

// ls-files on a very large monorepo takes seconds; a minute means git is stuck.
export const GIT_TIMEOUT_MS = 60_000;
// Enough of stderr for its warnings and to explain a failure, never an unbounded buffer.
const MAX_STDERR_CHARS = 64 * 1024;

export type GitResult =
  | { ok: true; stdout: Buffer; stderr: string }
  | { ok: false; reason: string; exitCode: number | null; stderr: string };

export interface RunGitOptions {
  cwd: string;
  /** From `buildGitEnvironment`, plus GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE where a caller needs them. */
  env: Record<string, string>;
  /** Extra `-c key=value` settings, placed after the hardening ones. */
  config?: readonly string[];
  timeoutMs?: number;
  /** Written to git's stdin, which is then closed; without it stdin is /dev/null. */
  input?: string | Buffer;
}

/**
 * The one way oy runs git: the binary from an absolute PATH entry, no shell, the hardening
 * settings and variables of `git-hardening.ts`, raw stdout back.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const child = spawnGit(args, options, options.input === undefined ? 'ignore' : 'pipe');
  if (typeof child === 'string') {
    return Promise.resolve({ ok: false, reason: child, exitCode: null, stderr: '' });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: GitResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, reason: 'timeout', exitCode: null, stderr: '' });
    }, options.timeoutMs ?? GIT_TIMEOUT_MS);
    const chunks: Buffer[] = [];
    const stderr = collectStderr(child);
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    if (options.input !== undefined) {
      // git may exit before reading all of stdin (a usage error): that is its exit status's to say.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(options.input);
    }
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, reason: error.code ?? error.message, exitCode: null, stderr: stderr() });
    });
    child.on('close', (code, signal) => {
      if (code === 0) finish({ ok: true, stdout: Buffer.concat(chunks), stderr: stderr() });
      else {
        const reason = signal === null ? `exit ${String(code)}` : `signal ${signal}`;
        finish({ ok: false, reason, exitCode: code, stderr: stderr() });
      }
    });
  });
}

/** A long-running git process (`cat-file --batch`, `diff-tree --stdin`) the caller talks to. */
export interface GitProcess {
  stdin: Writable;
  stdout: Readable;
  /** Settles when the process ends: how, and the start of its stderr. */
  exited: Promise<{ code: number | null; signal: string | null; stderr: string; error?: string }>;
  kill(): void;
}

/**
 * Starts git through the same door as `runGit`, with stdin and stdout as pipes and no timeout:
 * the caller watches for a stalled answer. A string when git cannot be started.
 */
export function startGit(
  args: readonly string[],
  options: Omit<RunGitOptions, 'timeoutMs' | 'input'>,
): GitProcess | string {
  const child = spawnGit(args, options, 'pipe');
  if (typeof child === 'string') return child;
  const stderr = collectStderr(child);
  const exited = new Promise<{
    code: number | null;
    signal: string | null;
    stderr: string;
    error?: string;
  }>((resolve) => {
    let error: string | undefined;
    child.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    child.on('close', (code, signal) =>
      resolve({ code, signal, stderr: stderr(), ...(error === undefined ? {} : { error }) }),
    );
  });
  // A write after git died is reported through `exited`, not as an unhandled error.
  child.stdin?.on('error', () => undefined);
  return {
    stdin: child.stdin as Writable,
    stdout: child.stdout as Readable,
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

function spawnGit(
  args: readonly string[],
  options: Pick<RunGitOptions, 'cwd' | 'env' | 'config'>,
  stdin: 'ignore' | 'pipe',
): ChildProcess | string {
  const searchPath = keepAbsolutePathEntries(options.env.PATH);
  const gitPath = findOnPath('git', searchPath);
  if (gitPath === null) return 'git not found on an absolute PATH entry';
  return spawn(gitPath, buildHardenedGitArgs(args, options.config), {
    cwd: options.cwd,
    env: { ...options.env, ...HARDENED_GIT_VARIABLES, PATH: searchPath },
    stdio: [stdin, 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  });
}

function collectStderr(child: ChildProcess): () => string {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
  });
  return () => stderr.slice(0, MAX_STDERR_CHARS);
}
