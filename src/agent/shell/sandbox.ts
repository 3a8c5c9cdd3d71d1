import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { resolveOyPaths } from '../../config/config-paths.js';
import { isInsideRoot } from '../../safety/paths/path-input.js';
import { findOnPath } from '../../shared/find-on-path.js';
import { buildBwrapArgs, type BwrapLayout, type WorkspaceAccess } from './build-bwrap-args.js';
import { findHostSockets, findKeptLinks, findRuntimeDirs } from './find-host-sockets.js';
import { planGitControl, type GitSnapshot } from './git-control.js';
import { findHiddenPaths } from './hidden-paths.js';
import { layOutHome } from './home-places.js';
import { reviewGitControl } from './review-git-control.js';
import { readSandboxGitSettings } from './sandbox-git-settings.js';
import { scanWorkspace } from './scan-workspace.js';
import { ensureUnreadableFile } from './unreadable-file.js';

/** Long enough for a trivial bwrap run on a slow machine, short enough not to stall a tool call. */
const PROBE_TIMEOUT_MS = 5_000;

// Often a link into /run (systemd-resolved, NetworkManager), which the sandbox empties.
const RESOLV_CONF = '/etc/resolv.conf';

type Environment = Readonly<Record<string, string | undefined>>;

/** What a sandboxed run may see and change beyond the fixed rules: from config and the session. */
export interface SandboxScope {
  /** `agent.homePaths` from the user config: places in HOME shown read-only. */
  homePaths: readonly string[];
  /** Plan mode's hooks and project servers get the workspace read-only. */
  workspaceAccess: WorkspaceAccess;
  /** Real paths of secret-bearing files the user approved reading in this session: not covered. */
  revealedFiles: ReadonlySet<string>;
  /** Where the command starts, inside the workspace (an MCP server's `cwd`); the workspace by default. */
  chdir?: string;
}

export const DEFAULT_SANDBOX_SCOPE: SandboxScope = {
  homePaths: [],
  workspaceAccess: 'read-write',
  revealedFiles: new Set(),
};

/** The scope a tool's or hook's shell settings give, with the access the caller needs. */
export function sandboxScopeOf(
  shell: {
    homePaths?: readonly string[];
    revealedFiles?: ReadonlySet<string>;
    workspaceAccess?: WorkspaceAccess;
  },
  access: WorkspaceAccess = shell.workspaceAccess ?? 'read-write',
): SandboxScope {
  return {
    homePaths: shell.homePaths ?? [],
    workspaceAccess: access,
    revealedFiles: shell.revealedFiles ?? new Set(),
  };
}

/** How shell commands will run: plainly, inside bwrap, or not at all (`sandbox: on` without bwrap). */
export type SandboxPlan =
  | { kind: 'none'; reason: string }
  | {
      kind: 'bwrap';
      bwrapPath: string;
      args: readonly string[];
      allowNetwork: boolean;
      scope: SandboxScope;
      /** The git control files as they were, for `reviewSandboxRun` (absent: nothing writable). */
      git?: GitSnapshot;
      /** The user's git identity and excludes file, as settings: the empty home has no `.gitconfig`. */
      gitSettings: readonly string[];
    }
  | { kind: 'unavailable'; reason: string };

export interface SandboxProbe {
  available: boolean;
  /** Why not, when unavailable; empty when it works. */
  reason: string;
  bwrapPath?: string;
}

/** bwraps that worked in this process: a probe costs a process start, and each command planned one. */
const workingBwraps = new Set<string>();

/** Whether bwrap is on PATH and can start a command with the namespaces the sandbox uses. */
export async function probeSandbox(
  env: Environment,
  platform: string = process.platform,
): Promise<SandboxProbe> {
  if (platform !== 'linux') return { available: false, reason: 'bwrap runs on Linux only' };
  const bwrapPath = findOnPath('bwrap', env.PATH);
  if (bwrapPath === null) return { available: false, reason: 'bwrap not found on PATH' };
  if (workingBwraps.has(bwrapPath)) return { available: true, reason: '', bwrapPath };
  // The probe runs this Node by its absolute path: a bare `true` would be looked up on PATH.
  const args = [
    ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
    ...['--unshare-net', '--cap-drop', 'ALL', '--unshare-pid', '--unshare-ipc'],
    ...['--die-with-parent', process.execPath, '--version'],
  ];
  const failure = await runProbe(bwrapPath, args, env);
  if (failure !== undefined) return { available: false, reason: `bwrap: ${failure}`, bwrapPath };
  workingBwraps.add(bwrapPath);
  return { available: true, reason: '', bwrapPath };
}

/**
 * Decides the sandbox for a command from the config setting: `off` never, `auto` when bwrap
 * works, `on` always (an `unavailable` plan when it cannot, which the bash tool refuses). With
 * `isLaidOut` false the bwrap plan has no arguments yet (a preview needs only its kind): lay it out
 * with `refreshSandboxPlan` just before the command starts.
 */
export async function planSandbox(
  setting: 'auto' | 'on' | 'off',
  workspaceRoot: string,
  env: Environment,
  allowNetwork: boolean,
  scope: SandboxScope = DEFAULT_SANDBOX_SCOPE,
  isLaidOut = true,
): Promise<SandboxPlan> {
  if (setting === 'off') return { kind: 'none', reason: 'sandbox: off in the config' };
  const probe = await probeSandbox(env);
  if (!probe.available || probe.bwrapPath === undefined) {
    return setting === 'on'
      ? { kind: 'unavailable', reason: `sandbox: on but bwrap is unavailable: ${probe.reason}` }
      : { kind: 'none', reason: probe.reason };
  }
  const bwrap = {
    kind: 'bwrap',
    bwrapPath: probe.bwrapPath,
    args: [],
    allowNetwork,
    scope,
    gitSettings: [],
  } as const;
  return isLaidOut ? refreshSandboxPlan(bwrap, workspaceRoot, env) : bwrap;
}

/**
 * The same plan with everything read again just before the command starts: sockets, files,
 * secret-bearing files and git directories come and go while the user reads the preview, and
 * bwrap cannot mount over one that is gone. Throws when the workspace cannot be listed.
 */
export async function refreshSandboxPlan(
  plan: SandboxPlan,
  workspaceRoot: string,
  env: Environment,
): Promise<SandboxPlan> {
  if (plan.kind !== 'bwrap') return plan;
  const workspace = realpathSync(workspaceRoot);
  const layout = await layOutSandbox(workspace, env, plan.allowNetwork, plan.scope);
  const { git, gitSettings, ...bwrapLayout } = layout;
  return {
    ...plan,
    args: buildBwrapArgs(bwrapLayout),
    ...(git === undefined ? {} : { git }),
    gitSettings,
  };
}

/**
 * After a sandboxed run: any git directory or control file it created that git would run code
 * from is disabled, and one line per change says so (git-control.ts explains what is checked).
 */
export async function reviewSandboxRun(
  plan: SandboxPlan,
  workspaceRoot: string,
  env: Environment,
): Promise<string[]> {
  if (plan.kind !== 'bwrap' || plan.git === undefined) return [];
  return reviewGitControl(realpathSync(workspaceRoot), plan.git, env);
}

/** What the sandbox hides and shows for this HOME, workspace and host, read now. */
export async function layOutSandbox(
  workspace: string,
  env: Environment,
  allowNetwork: boolean,
  scope: SandboxScope = DEFAULT_SANDBOX_SCOPE,
): Promise<BwrapLayout & { git?: GitSnapshot; gitSettings: string[] }> {
  const runtimeDirs = findRuntimeDirs(env);
  const home = layOutHome(env, scope.homePaths);
  const userGit = await readSandboxGitSettings(env, workspace);
  const scan = scanWorkspace(workspace);
  const isWritable = scope.workspaceAccess === 'read-write';
  const git = isWritable ? await planGitControl(workspace, scan.gitEntries, env) : undefined;
  const masked = scan.secretFiles.filter((file) => !scope.revealedFiles.has(file));
  return {
    workspace,
    workspaceAccess: scope.workspaceAccess,
    homes: home.homes,
    visible: [...home.visible, ...userGit.visibleFiles],
    gitMounts: git?.mounts ?? [],
    masked,
    maskSource: ensureUnreadableFile(resolveOyPaths(env).cacheDir),
    hidden: findHiddenPaths(env),
    runtimeDirs,
    sockets: findHostSockets(),
    keptFiles: allowNetwork ? findResolverFiles(runtimeDirs) : [],
    keptLinks: findKeptLinks(runtimeDirs),
    allowNetwork,
    ...(scope.chdir === undefined ? {} : { chdir: scope.chdir }),
    ...(git === undefined ? {} : { git: git.snapshot }),
    gitSettings: userGit.settings,
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
    const workspace =
      plan.scope.workspaceAccess === 'read-only'
        ? 'read-only workspace'
        : 'writable workspace except its git control files';
    return `bwrap (${workspace}, empty home with toolchains read-only, secret files unreadable, private /tmp, host sockets hidden, ${network})`;
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
