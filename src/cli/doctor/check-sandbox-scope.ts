import { listHiddenCandidates } from '../../agent/shell/hidden-paths.js';
import { layOutSandbox } from '../../agent/shell/sandbox.js';
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
}

/**
 * What a sandboxed command cannot see (credential places in HOME, host runtime folders and
 * sockets) and whether it has the network: read from the same layout the bash tool builds.
 */
export function checkSandboxScope(input: SandboxScopeInput): DoctorCheck[] {
  if (input.commands === 'refused') {
    const detail = 'nothing to hide: sandbox: on and bwrap unavailable, so commands are refused';
    return [{ id: 'sandbox-hides', status: 'info', detail, data: { isSandboxed: false } }];
  }
  if (input.commands === 'unsandboxed') {
    const detail = 'nothing: shell commands run unsandboxed, with your full privileges';
    return [
      { id: 'sandbox-hides', status: 'info', detail, data: { isSandboxed: false } },
      {
        id: 'command-network',
        status: 'info',
        detail: 'on: commands run unsandboxed (agent.network applies only inside the sandbox)',
        data: { hasNetwork: true, setting: input.hasNetwork },
      },
    ];
  }
  const layout = layOutSandbox(input.workspace ?? '/', input.env, input.hasNetwork);
  const known = listHiddenCandidates(input.env).length;
  const hidden = layout.hidden.length;
  const runtime = layout.runtimeDirs.join(', ');
  // Sockets in /tmp or an emptied runtime folder are gone with it; count the ones covered one by one.
  const emptied = ['/tmp', ...layout.runtimeDirs];
  const sockets = layout.sockets.filter(
    (socket) => !emptied.some((dir) => isInsideRoot(dir, socket)),
  ).length;
  return [
    {
      id: 'sandbox-hides',
      status: 'ok',
      detail:
        `home: ${hidden} credential path${hidden === 1 ? '' : 's'} hidden (of ${known} known); ` +
        `host sockets: hidden (${runtime || 'no runtime folder'} emptied, ` +
        `${sockets} other listening socket${sockets === 1 ? '' : 's'} covered); /tmp: private`,
      data: {
        isSandboxed: true,
        hiddenPaths: layout.hidden.map((entry) => entry.path),
        knownPaths: known,
        runtimeDirs: layout.runtimeDirs,
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
  ];
}
