import { spawn } from 'node:child_process';
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
}

/**
 * The one way oy runs git: the binary from an absolute PATH entry, no shell, no stdin, the
 * hardening settings and variables of `git-hardening.ts`, raw stdout back.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const searchPath = keepAbsolutePathEntries(options.env.PATH);
  const gitPath = findOnPath('git', searchPath);
  if (gitPath === null) {
    return Promise.resolve({
      ok: false,
      reason: 'git not found on an absolute PATH entry',
      exitCode: null,
      stderr: '',
    });
  }
  const env = { ...options.env, ...HARDENED_GIT_VARIABLES, PATH: searchPath };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: GitResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn(gitPath, buildHardenedGitArgs(args, options.config), {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, reason: 'timeout', exitCode: null, stderr: '' });
    }, options.timeoutMs ?? GIT_TIMEOUT_MS);
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ ok: false, reason: error.code ?? error.message, exitCode: null, stderr });
    });
    child.on('close', (code, signal) => {
      if (code === 0) finish({ ok: true, stdout: Buffer.concat(chunks), stderr });
      else {
        const reason = signal === null ? `exit ${String(code)}` : `signal ${signal}`;
        finish({ ok: false, reason, exitCode: code, stderr: stderr.slice(0, MAX_STDERR_CHARS) });
      }
    });
  });
}
