import { spawn } from 'node:child_process';
import { OutputCapture } from './capture-output.js';
import { findOnPath } from '../../shared/find-on-path.js';
import type { SandboxPlan } from './sandbox.js';
import { signalGroup } from './signal-group.js';
import { waitForGroupExit } from './wait-for-group-exit.js';

/** Time a command gets between SIGTERM and SIGKILL to clean up after a timeout or cancel. */
export const KILL_GRACE_MS = 2_000;

/** What a supervised command did; the field names are the `bash` tool's public result. */
export interface CommandResult {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  stdout: string;
  stderr: string;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  duration_ms: number;
  sandboxed: boolean;
}

export interface SupervisedCommand {
  command: string;
  cwd: string;
  timeoutMs: number;
  env: Record<string, string>;
  sandbox: SandboxPlan;
  signal?: AbortSignal;
  /** Written to stdin, which is then closed (user hooks read their event there); no stdin without it. */
  input?: string;
}

/**
 * Runs `bash -c command` (inside bwrap when the plan says so) as the leader of its own process
 * group with stdin closed. On timeout or abort the group gets SIGTERM, then SIGKILL after
 * KILL_GRACE_MS. When the shell exits, whatever it left running in the group is killed too, so
 * nothing outlives the call (a process that calls setsid escapes the group; the sandbox's PID
 * namespace catches those).
 */
export function runSupervised(options: SupervisedCommand): Promise<CommandResult> {
  const { sandbox } = options;
  if (sandbox.kind === 'unavailable') return Promise.reject(new Error(sandbox.reason));
  // A plan made for a preview only (planSandbox with isLaidOut false) must be laid out first.
  if (sandbox.kind === 'bwrap' && sandbox.args.length === 0)
    return Promise.reject(new Error('the sandbox was not laid out before the command'));
  if (options.signal?.aborted) return Promise.reject(new Error('cancelled before it started'));
  // Only absolute PATH entries: a relative one would find the workspace's own `bash`.
  const bashPath = findOnPath('bash', options.env.PATH);
  if (bashPath === null) {
    return Promise.reject(new Error('bash not found on an absolute PATH entry'));
  }
  const [file, args] =
    sandbox.kind === 'bwrap'
      ? [sandbox.bwrapPath, [...sandbox.args, '--', bashPath, '-c', options.command]]
      : [bashPath, ['-c', options.command]];
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    // A hook that never reads its stdin must not make the write fail the run.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
    const stdout = new OutputCapture();
    const stderr = new OutputCapture();
    child.stdout?.on('data', (chunk: Buffer) => stdout.append(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk));

    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const groupId = child.pid;
    const terminate = (): void => {
      if (groupId === undefined || killTimer !== undefined) return;
      signalGroup(groupId, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(groupId, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timeoutTimer = setTimeout(() => {
      // Only the command itself can time out, not leftovers being killed after it exited.
      if (exit === undefined) timedOut = true;
      terminate();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', terminate, { once: true });

    const cleanUp = (): void => {
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', terminate);
    };
    child.on('error', (error) => {
      cleanUp();
      if (groupId !== undefined) signalGroup(groupId, 'SIGKILL');
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Background processes still holding the pipes would keep `close` from ever coming.
      terminate();
    });
    child.on('close', () => void finish());
    const finish = async (): Promise<void> => {
      cleanUp();
      // Leftovers that ignored SIGTERM (or hold no pipe) die now: nothing outlives the call.
      if (groupId !== undefined) {
        signalGroup(groupId, 'SIGKILL');
        await waitForGroupExit(groupId);
      }
      const out = stdout.finish();
      const err = stderr.finish();
      resolve({
        exit_code: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timed_out: timedOut,
        stdout: out.text,
        stderr: err.text,
        stdout_truncated: out.truncated,
        stderr_truncated: err.truncated,
        duration_ms: Math.round(performance.now() - startedAt),
        sandboxed: sandbox.kind === 'bwrap',
      });
    };
  });
}
