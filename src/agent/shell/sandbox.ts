import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { isInsideRoot } from '../../safety/paths/path-input.js';
import { buildBwrapArgs, type BwrapLayout } from './build-bwrap-args.js';
import { findOnPath } from '../../shared/find-on-path.js';
import { findHostSockets, findKeptLinks, findRuntimeDirs } from './find-host-sockets.js';
import { findHiddenPaths } from './hidden-paths.js';

/** Long enough for a trivial bwrap run on a slow machine, short enough not to stall a tool call. */
const PROBE_TIMEOUT_MS = 5_000;

// Often a link into /run (systemd-resolved, NetworkManager), which the sandbox empties.
const RESOLV_CONF = '/etc/resolv.conf';

type Environment = Readonly<Record<string, string | undefined>>;

/** How shell commands will run: plainly, inside bwrap, or not at all (`sandbox: on` without bwrap). */
export type SandboxPlan =
  | { kind: 'none'; reason: string }
  | { kind: 'bwrap'; bwrapPath: string; args: readonly string[]; allowNetwork: boolean }
  | { kind: 'unavailable'; reason: string };

export interface SandboxProbe {
  available: boolean;
  /** Why not, when unavailable; empty when it works. */
  reason: string;
  bwrapPath?: string;
}

/** Whether bwrap is on PATH and can start a command with the namespaces the sandbox uses. */
export async function probeSandbox(
  env: Environment,
  platform: string = process.platform,
): Promise<SandboxProbe> {
  if (platform !== 'linux') return { available: false, reason: 'bwrap runs on Linux only' };
  const bwrapPath = findOnPath('bwrap', env.PATH);
  if (bwrapPath === null) return { available: false, reason: 'bwrap not found on PATH' };
  // The probe runs this Node by its absolute path: a bare `true` would be looked up on PATH.
  const args = [
    ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
    ...['--unshare-net', '--unshare-pid', '--unshare-ipc', '--die-with-parent'],
    ...[process.execPath, '--version'],
  ];
  const failure = await runProbe(bwrapPath, args, env);
  if (failure !== undefined) return { available: false, reason: `bwrap: ${failure}`, bwrapPath };
  return { available: true, reason: '', bwrapPath };
}

/**
 * Decides the sandbox for a command from the config setting: `off` never, `auto` when bwrap
 * works, `on` always (an `unavailable` plan when it cannot, which the bash tool refuses).
 */
export async function planSandbox(
  setting: 'auto' | 'on' | 'off',
  workspaceRoot: string,
  env: Environment,
  allowNetwork: boolean,
): Promise<SandboxPlan> {
  if (setting === 'off') return { kind: 'none', reason: 'sandbox: off in the config' };
  const probe = await probeSandbox(env);
  if (!probe.available || probe.bwrapPath === undefined) {
    return setting === 'on'
      ? { kind: 'unavailable', reason: `sandbox: on but bwrap is unavailable: ${probe.reason}` }
      : { kind: 'none', reason: probe.reason };
  }
  const args = buildBwrapArgs(layOutSandbox(realpathSync(workspaceRoot), env, allowNetwork));
  return { kind: 'bwrap', bwrapPath: probe.bwrapPath, args, allowNetwork };
}

/**
 * The same plan with what to hide read again just before the command starts: sockets and files
 * come and go while the user reads the preview, and bwrap cannot mount over one that is gone.
 */
export function refreshSandboxPlan(
  plan: SandboxPlan,
  workspaceRoot: string,
  env: Environment,
): SandboxPlan {
  if (plan.kind !== 'bwrap') return plan;
  const layout = layOutSandbox(realpathSync(workspaceRoot), env, plan.allowNetwork);
  return { ...plan, args: buildBwrapArgs(layout) };
}

/** What the sandbox hides for this HOME and host, read now (sockets come and go). */
export function layOutSandbox(
  workspace: string,
  env: Environment,
  allowNetwork: boolean,
): BwrapLayout {
  const runtimeDirs = findRuntimeDirs(env);
  return {
    workspace,
    hidden: findHiddenPaths(env),
    runtimeDirs,
    sockets: findHostSockets(),
    keptFiles: allowNetwork ? findResolverFiles(runtimeDirs) : [],
    keptLinks: findKeptLinks(runtimeDirs),
    allowNetwork,
  };
}

/** resolv.conf's real file when it lives in an emptied runtime folder (systemd-resolved's stub). */
function findResolverFiles(runtimeDirs: readonly string[]): string[] {
  if (!existsSync(RESOLV_CONF)) return [];
  const real = realpathSync(RESOLV_CONF);
  const isInRuntimeDir = runtimeDirs.some((dir) => isInsideRoot(dir, real));
  return real !== RESOLV_CONF && isInRuntimeDir ? [real] : [];
}

/** One line saying how commands run, for previews and doctor. */
export function describeSandboxPlan(plan: SandboxPlan): string {
  if (plan.kind === 'bwrap') {
    const network = plan.allowNetwork ? 'network on (agent.network)' : 'no network';
    return `bwrap (read-only except the workspace, private /tmp, credentials and host sockets hidden, ${network})`;
  }
  if (plan.kind === 'none') return `none (${plan.reason})`;
  return `refused (${plan.reason})`;
}

/** Runs the probe with no shell and a timeout; undefined when it worked, else why it did not. */
function runProbe(file: string, args: string[], env: Environment): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: PROBE_TIMEOUT_MS, env: { ...env }, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        if (!error) return resolve(undefined);
        if (error.killed) return resolve(`no answer within ${PROBE_TIMEOUT_MS} ms`);
        const firstLine = stderr
          .split('\n')
          .find((line) => line.trim() !== '')
          ?.trim();
        resolve(firstLine ?? error.message);
      },
    );
  });
}
