import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SandboxSetting } from '../../config/config-schema.js';
import { resolveOyPaths } from '../../config/config-paths.js';
import { isInsideRoot } from '../../safety/paths/path-input.js';
import type { WorkspaceAccess } from '../shell/build-bwrap-args.js';
import { buildChildEnvironment } from '../shell/child-environment.js';
import { homeOf } from '../shell/home-places.js';
import { planSandbox, reviewSandboxRun } from '../shell/sandbox.js';
import type { McpServerSource } from './mcp-server-pool.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** How the run's stdio servers start: where a user's server runs, and the sandbox for a project's. */
export interface McpLaunch {
  /** The sandbox setting, network and home places the bash tool uses, for project servers. */
  sandbox: { setting: SandboxSetting; allowNetwork: boolean; homePaths: readonly string[] };
  /** Project servers get the workspace read-only in plan mode (and for `oy mcp list`, `oy doctor`). */
  workspaceAccess: WorkspaceAccess;
}

/** What StdioGroupTransport starts, and what to check once the server is gone. */
export interface McpSpawn {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** After the server stops (or between calls): what it left that git would run (sandbox.ts). */
  review(): Promise<string[]>;
}

interface StdioConfig {
  command: string;
  args?: string[] | undefined;
  env?: Record<string, string> | undefined;
  cwd?: string | undefined;
}

export interface SpawnContext {
  source: McpServerSource;
  workspaceRoot: string;
  baseEnv: Environment;
  allowedEnvNames: readonly string[];
  launch: McpLaunch;
}

/**
 * A user's server is the user's program: it runs unsandboxed, but never in the workspace, so
 * `npx <pkg>` finds no package of the workspace's `node_modules`, `python -m <mod>` imports no
 * module of the workspace and a relative path names nothing there; it starts in a neutral empty
 * folder of oy's state (or its own `cwd`, which may not lie in the workspace). A project server
 * (an approved `.mcp.json`) is the repository's code: it runs inside the bash tool's sandbox,
 * under the mode's write rules, in its `cwd` inside the workspace. Where bwrap does not work the
 * setting decides as it does for bash: `auto` runs it unsandboxed, `on` refuses it.
 */
export async function prepareMcpSpawn(
  config: StdioConfig,
  context: SpawnContext,
): Promise<McpSpawn> {
  const workspace = realpathSync(context.workspaceRoot);
  const args = config.args ?? [];
  if (context.source === 'user') {
    const cwd = userServerFolder(config.cwd, workspace, context.baseEnv);
    const env = buildChildEnvironment(context.baseEnv, {
      allowedNames: context.allowedEnvNames,
      ...(config.env === undefined ? {} : { serverEnv: config.env }),
    });
    return { command: config.command, args, env, cwd, review: () => Promise.resolve([]) };
  }
  const cwd = realpathSync(path.resolve(workspace, config.cwd ?? '.'));
  const { sandbox } = context.launch;
  const plan = await planSandbox(
    sandbox.setting,
    workspace,
    context.baseEnv,
    sandbox.allowNetwork,
    {
      homePaths: sandbox.homePaths,
      workspaceAccess: context.launch.workspaceAccess,
      revealedFiles: new Set(),
      chdir: cwd,
    },
  );
  if (plan.kind === 'unavailable') throw new Error(plan.reason);
  const env = buildChildEnvironment(context.baseEnv, {
    allowedNames: context.allowedEnvNames,
    ...(config.env === undefined ? {} : { serverEnv: config.env }),
    gitSettings: plan.kind === 'bwrap' ? plan.gitSettings : [],
  });
  if (plan.kind === 'none')
    return { command: config.command, args, env, cwd, review: () => Promise.resolve([]) };
  return {
    command: plan.bwrapPath,
    args: [...plan.args, '--', config.command, ...args],
    env,
    cwd,
    review: () => reviewSandboxRun(plan, workspace, context.baseEnv),
  };
}

/**
 * A user server's folder: its `cwd` (`~/…` from HOME, a relative one from the neutral folder) or
 * the neutral folder, `<state>/mcp-servers`, made empty and private. Throws when it lies in the
 * workspace; the neutral folder itself falls back to `/` when the workspace holds it (oy run in HOME).
 */
function userServerFolder(
  configured: string | undefined,
  workspace: string,
  env: Environment,
): string {
  const neutral = neutralFolder(workspace, env);
  if (configured === undefined) return neutral;
  const expanded = configured.startsWith('~/')
    ? path.join(homeOf(env), configured.slice(2))
    : path.resolve(neutral, configured);
  let real = expanded;
  try {
    real = realpathSync(expanded);
  } catch {
    // Missing: the spawn fails with its own message.
  }
  if (isInsideRoot(workspace, expanded) || isInsideRoot(workspace, real))
    throw new Error(
      `its cwd ${configured} is inside the workspace, where a user server would run the workspace's own packages; name a folder outside it, or move the server to the workspace's .mcp.json to run it sandboxed`,
    );
  return expanded;
}

function neutralFolder(workspace: string, env: Environment): string {
  const folder = path.join(resolveOyPaths(env).stateDir, 'mcp-servers');
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const real = realpathSync(folder);
    if (!isInsideRoot(workspace, real)) return real;
  } catch {
    // No state folder: the file system's root is as neutral.
  }
  return '/';
}
