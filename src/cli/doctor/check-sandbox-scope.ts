import os from 'node:os';
import path from 'node:path';
import {
  findHostSockets,
  findRuntimeDirs,
  findHiddenPaths,
  listHiddenCandidates,
  layOutHome,
  scanWorkspace,
} from '../../agent/index.js';
import type { HookSettings } from '../../config/hooks-schema.js';
import { isInsideRoot } from '../../safety/paths/path-input.js';
import type { DoctorCheck } from './doctor-check.js';

export interface SandboxScopeInput {
  env: NodeJS.ProcessEnv;
  /** The workspace's real path; null when it could not be resolved. */
  workspace: string | null;
  /** How commands will run: the sandbox check's verdict read against the setting. */
  commands: 'sandboxed' | 'unsandboxed' | 'refused';
  /** `agent.network` as the agent would see it. */
  hasNetwork: boolean;
  /** `agent.homePaths` from the user config. */
  homePaths?: readonly string[];
  /** The user's hooks: those marked `"sandbox": false` are named. */
  hooks?: HookSettings;
}

/**
 * What a sandboxed command sees (the places of HOME shown read-only, the workspace with its git
 * control files and secret-bearing files) and cannot see (credential places, host runtime folders
 * and sockets), whether it has the network, and which hooks run outside the sandbox: read from the
 * same layout the bash tool builds.
 */
export function checkSandboxScope(input: SandboxScopeInput): DoctorCheck[] {
  const hooks = checkUnsandboxedHooks(input.hooks ?? {}, input.commands);
  if (input.commands === 'refused') {
    const detail = 'nothing to hide: sandbox: on and bwrap unavailable, so commands are refused';
    return [
      { id: 'sandbox-hides', status: 'info', detail, data: { isSandboxed: false } },
      ...hooks,
    ];
  }
  if (input.commands === 'unsandboxed') {
    const detail =
      'nothing: shell commands, hooks and project MCP servers run unsandboxed, with your full privileges';
    return [
      { id: 'sandbox-hides', status: 'info', detail, data: { isSandboxed: false } },
      {
        id: 'command-network',
        status: 'info',
        detail: 'on: commands run unsandboxed (agent.network applies only inside the sandbox)',
        data: { hasNetwork: true, setting: input.hasNetwork },
      },
      ...hooks,
    ];
  }
  // Read the way the bash tool lays the sandbox out, without making anything (doctor changes nothing).
  let scan;
  try {
    scan = input.workspace === null ? undefined : scanWorkspace(input.workspace);
  } catch (error) {
    return [
      {
        id: 'sandbox-hides',
        status: 'warn',
        detail: `the sandbox cannot be prepared for this workspace: ${(error as Error).message}`,
        hint: 'commands will be refused; run oy in a smaller folder',
        data: { isSandboxed: true },
      },
      ...hooks,
    ];
  }
  const { homes, visible } = layOutHome(input.env, input.homePaths ?? []);
  const hiddenPaths = findHiddenPaths(input.env).map((entry) => entry.path);
  const runtimeDirs = findRuntimeDirs(input.env);
  const home = homes[0] ?? os.homedir();
  const shown = visible.map((place) =>
    isInsideRoot(home, place) ? `~/${path.relative(home, place)}` : place,
  );
  const hidden = hiddenPaths.length;
  const known = listHiddenCandidates(input.env).length;
  const isHomeExposed =
    input.workspace !== null && homes.some((dir) => isInsideRoot(input.workspace ?? '/', dir));
  const gitDirs = scan?.gitEntries.length ?? 0;
  const masked = scan?.secretFiles.length ?? 0;
  // Sockets in /tmp or an emptied runtime folder are gone with it; count the ones covered one by one.
  const emptied = ['/tmp', ...runtimeDirs, ...homes];
  const sockets = findHostSockets().filter(
    (socket) => !emptied.some((dir) => isInsideRoot(dir, socket)),
  ).length;
  const runtime = runtimeDirs.join(', ');
  return [
    isHomeExposed
      ? {
          id: 'sandbox-home',
          status: 'warn',
          detail: `home: the workspace is (or holds) your home folder, so commands see all of it except ${hidden} credential path${hidden === 1 ? '' : 's'} (of ${known} known)`,
          hint: 'run oy in a project folder, so the home folder stays empty for commands',
          data: { homes, visible, hiddenPaths },
        }
      : {
          id: 'sandbox-home',
          status: 'ok',
          detail:
            `home: empty and thrown away after each command; shown read-only: ` +
            `${shown.length === 0 ? 'nothing' : shown.join(', ')}` +
            ` (toolchains, caches, PATH entries, agent.homePaths); ${hidden} credential path${hidden === 1 ? '' : 's'} hidden inside (of ${known} known)`,
          data: { homes, visible, hiddenPaths },
        },
    {
      id: 'sandbox-workspace',
      status: 'ok',
      detail:
        `workspace: writable, except the control files of ${gitDirs} git repositor${gitDirs === 1 ? 'y' : 'ies'} (read-only); ` +
        `${masked} secret-bearing file${masked === 1 ? '' : 's'} unreadable until you approve reading ${masked === 1 ? 'it' : 'one'}; read-only for hooks and project MCP servers in plan mode`,
      data: { gitDirectories: gitDirs, secretFiles: masked },
    },
    {
      id: 'sandbox-hides',
      status: 'ok',
      detail:
        `host sockets: hidden (${runtime || 'no runtime folder'} emptied, ` +
        `${sockets} other listening socket${sockets === 1 ? '' : 's'} covered); /tmp: private`,
      data: {
        isSandboxed: true,
        hiddenPaths,
        knownPaths: known,
        runtimeDirs,
        hostSockets: sockets,
      },
    },
    {
      id: 'command-network',
      status: 'info',
      detail: input.hasNetwork
        ? 'on (agent.network: true): commands reach the network and loopback'
        : 'off (agent.network): commands reach no network, loopback included',
      data: { hasNetwork: input.hasNetwork, setting: input.hasNetwork },
    },
    ...hooks,
  ];
}

/** One warning naming every hook the user runs outside the sandbox (`"sandbox": false`). */
function checkUnsandboxedHooks(
  hooks: HookSettings,
  commands: SandboxScopeInput['commands'],
): DoctorCheck[] {
  const named = Object.entries(hooks).flatMap(([event, entries]) =>
    (entries ?? [])
      .filter((entry) => entry.sandbox === false)
      .map((entry) => `${event} ${JSON.stringify(entry.command)}`),
  );
  if (named.length === 0) return [];
  const where = commands === 'sandboxed' ? '' : ' (so would every hook: commands run unsandboxed)';
  return [
    {
      id: 'hooks-unsandboxed',
      status: 'warn',
      detail: `hooks run outside the sandbox, with your full rights${where}: ${named.join('; ')}`,
      hint: 'remove "sandbox": false from a hook unless it must reach something the sandbox hides',
      data: { hooks: named },
    },
  ];
}
