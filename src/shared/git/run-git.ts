import { spawn } from 'node:child_process';

// ls-files on a very large monorepo takes seconds; a minute means git is stuck.
export const GIT_TIMEOUT_MS = 60_000;
// Enough of stderr for its warnings and to explain a failure, never an unbounded buffer.
const MAX_STDERR_CHARS = 64 * 1024;

// A repository's own config must not run code: core.fsmonitor is a command git would start,
// hooks (post-index-change) could run, and the ext:: transport is a shell.
const HARDENING_ARGS = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'protocol.ext.allow=never',
  '--no-pager',
];

export type GitResult =
  | { ok: true; stdout: Buffer; stderr: string }
  | { ok: false; reason: string; exitCode: number | null; stderr: string };

export interface RunGitOptions {
  cwd: string;
  env: Record<string, string>;
  /** Extra `-c key=value` settings, placed after the hardening ones. */
  config?: string[];
  timeoutMs?: number;
}

/** Runs git hardened (no shell, no stdin, no repository-configured commands) and returns its raw stdout. */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const configArgs = (options.config ?? []).flatMap((setting) => ['-c', setting]);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: GitResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn('git', [...HARDENING_ARGS, ...configArgs, ...args], {
      cwd: options.cwd,
      env: options.env,
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
