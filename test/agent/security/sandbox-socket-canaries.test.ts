import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBwrapArgs } from '../../../src/agent/shell/build-bwrap-args.js';
import { runSupervised, type CommandResult } from '../../../src/agent/shell/run-supervised.js';
import {
  DEFAULT_SANDBOX_SCOPE,
  layOutSandbox,
  planSandbox,
  probeSandbox,
  refreshSandboxPlan,
  type SandboxPlan,
} from '../../../src/agent/shell/sandbox.js';

// Security suite "sandbox socket canaries" (SECURITY.md "Where bubblewrap works, commands run in a sandbox"): a sandboxed command cannot connect to a
// Unix socket a host process serves outside the workspace (the runtime folder's session bus,
// one under HOME, one beside a database), while the workspace's own socket still works. Each
// server counts connections; a control run without the hiding reaches every one.

const probe = await probeSandbox(process.env);
// Under /var/tmp, not /tmp: the sandbox's private /tmp would hide a socket there by itself.
const root = realpathSync(mkdtempSync('/var/tmp/oy-sockets-'));
const home = path.join(root, 'home');
const runtimeDir = path.join(root, 'run-user');
const workspace = path.join(root, 'workspace');
const places = {
  'the runtime folder ($XDG_RUNTIME_DIR/bus)': path.join(runtimeDir, 'bus'),
  'a socket under HOME (~/.local/share/app/agent.sock)': path.join(
    home,
    '.local/share/app/agent.sock',
  ),
  'a socket elsewhere on disk (a database socket)': path.join(root, 'var-lib-db', 'db.sock'),
};
const insideWorkspace = path.join(workspace, 'dev.sock');

const servers: Server[] = [];
const connections = new Map<string, number>();

function serve(socketPath: string): Promise<void> {
  mkdirSync(path.dirname(socketPath), { recursive: true });
  connections.set(socketPath, 0);
  const server = createServer((socket) => {
    connections.set(socketPath, (connections.get(socketPath) ?? 0) + 1);
    socket.end('hello\n');
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(socketPath, resolve));
}

beforeAll(async () => {
  for (const socketPath of [...Object.values(places), insideWorkspace]) await serve(socketPath);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(root, { recursive: true, force: true });
});

/** A command that connects to a Unix socket with Node (bash has no Unix-socket redirection). */
function connectCommand(socketPath: string): string {
  const script = `require('net').connect(${JSON.stringify(socketPath)}).on('data', (d) => process.stdout.write(String(d))).on('error', (e) => { console.log(e.code); process.exitCode = 1; })`;
  return `'${process.execPath}' -e "${script.replaceAll('"', '\\"')}"`;
}

async function connect(socketPath: string, isHiding: boolean): Promise<CommandResult> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_RUNTIME_DIR: runtimeDir,
  };
  const {
    git: _git,
    gitSettings: _settings,
    ...layout
  } = await layOutSandbox(workspace, env, false);
  const args = buildBwrapArgs(
    isHiding
      ? layout
      : { ...layout, runtimeDirs: [], sockets: [], keptLinks: [], keptFiles: [], homes: [] },
  );
  return runSupervised({
    command: connectCommand(socketPath),
    cwd: workspace,
    timeoutMs: 20_000,
    env,
    sandbox: {
      kind: 'bwrap',
      bwrapPath: probe.bwrapPath ?? 'bwrap',
      args,
      allowNetwork: false,
      scope: DEFAULT_SANDBOX_SCOPE,
      gitSettings: [],
    },
  });
}

const sandboxEnv = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  XDG_RUNTIME_DIR: runtimeDir,
});

function runPlanned(socketPath: string, plan: SandboxPlan): Promise<CommandResult> {
  return runSupervised({
    command: connectCommand(socketPath),
    cwd: workspace,
    timeoutMs: 20_000,
    env: sandboxEnv(),
    sandbox: plan,
  });
}

interface Case {
  name: string;
  check: () => Promise<void>;
}

const cases: Case[] = [
  ...Object.entries(places).flatMap(([place, socketPath]) => [
    {
      name: `${place} is unreachable and its server sees nothing`,
      async check() {
        const before = connections.get(socketPath);
        const result = await connect(socketPath, true);
        expect(result.stdout).not.toContain('hello');
        expect(result.exit_code).not.toBe(0);
        expect(connections.get(socketPath)).toBe(before);
      },
    },
    {
      name: `control: ${place} is reached without the hiding (the canary can fire)`,
      async check() {
        const before = connections.get(socketPath) ?? 0;
        const result = await connect(socketPath, false);
        expect(result.stdout).toBe('hello\n');
        expect(connections.get(socketPath)).toBe(before + 1);
      },
    },
  ]),
  {
    name: 'a socket that appears after the plan (while the user reads the preview) is hidden',
    async check() {
      const plan = await planSandbox('on', workspace, sandboxEnv(), false);
      // Outside HOME, which the sandbox empties whole: only the socket list can cover this one.
      const late = path.join(root, 'late', 'agent.sock');
      await serve(late);
      const stale = await runPlanned(late, plan);
      // Control: the plan made before the socket existed does not cover it.
      expect(stale.stdout).toBe('hello\n');
      const before = connections.get(late);
      const fresh = await runPlanned(late, await refreshSandboxPlan(plan, workspace, sandboxEnv()));
      expect(fresh.stdout).not.toContain('hello');
      expect(connections.get(late)).toBe(before);
    },
  },
  {
    name: 'a link out of the runtime folder still leads to its programs (NixOS /run/current-system)',
    async check() {
      const system = path.join(root, 'system');
      mkdirSync(path.join(system, 'bin'), { recursive: true });
      writeFileSync(path.join(system, 'bin', 'hello'), '#!/bin/sh\necho system-hello\n', {
        mode: 0o755,
      });
      symlinkSync(system, path.join(runtimeDir, 'current-system'));
      const plan = await planSandbox('on', workspace, sandboxEnv(), false);
      const result = await runSupervised({
        command: '"$XDG_RUNTIME_DIR/current-system/bin/hello"; ls "$XDG_RUNTIME_DIR"',
        cwd: workspace,
        timeoutMs: 20_000,
        env: sandboxEnv(),
        sandbox: plan,
      });
      // The program runs; the bus socket beside the link stays gone.
      expect(result.stdout).toBe('system-hello\ncurrent-system\n');
    },
  },
  {
    name: "the workspace's own socket still works",
    async check() {
      const before = connections.get(insideWorkspace) ?? 0;
      const result = await connect(insideWorkspace, true);
      expect(result.stdout).toBe('hello\n');
      expect(connections.get(insideWorkspace)).toBe(before + 1);
    },
  },
];

describe.skipIf(!probe.available)('sandbox socket canaries suite (bwrap)', () => {
  it.each(cases)('$name', async ({ check }) => check(), 30_000);

  it('counts its cases', () => {
    console.log(`sandbox socket canaries suite: ${cases.length} cases`);
    expect(cases.length).toBe(9);
  });
});

// Say why in the run's output rather than passing silently.
if (!probe.available) {
  describe(`sandbox socket canaries skipped: ${probe.reason}`, () => {
    it.skip('bwrap does not work on this machine', () => {});
  });
}
