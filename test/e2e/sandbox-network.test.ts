import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/agent/shell/sandbox.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';

// Security suite "sandbox network" (SECURITY.md "No network unless you turn it on"), through the built CLI: a WebFetch allow rule
// lets oy's own webfetch reach its domain, never a command; only agent.network in the user
// config gives commands the network. A loopback server started here counts connections.

const probe = await probeSandbox(process.env);
const MODEL = 'anthropic::claude-haiku-4-5';
const userConfig = process.env.OY_CONFIG ?? '';

let server: Server;
let port = 0;
let connections = 0;
let fake: FakeProviderServer;
let workspace: string;

beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-net-e2e-')));
});
afterEach(async () => {
  await fake.close();
  rmSync(userConfig, { force: true });
});

/** Runs one bash call that connects to the loopback server, with this user config. */
async function runConnect(config: object): Promise<{ code: number | null; toolResult: string }> {
  mkdirSync(path.dirname(userConfig), { recursive: true });
  writeFileSync(userConfig, JSON.stringify(config));
  fake.enqueue(
    reply.toolCall('bash', { command: `exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3` }),
    reply.text('Done.'),
  );
  const result = await runOy(['run', '--model', MODEL, '--mode', 'auto', 'connect'], {
    cwd: workspace,
    env: fakeProviderEnv(fake),
  });
  const toolResult = fake.modelCalls.at(-1)?.rawBody ?? '';
  return { code: result.code, toolResult };
}

interface Case {
  name: string;
  check: () => Promise<void>;
}

const webfetchRule = { permissions: { allow: ['WebFetch(domain:docs.python.org)'] } };
const cases: Case[] = [
  {
    name: 'a WebFetch(domain:...) allow rule gives commands no network, loopback included',
    async check() {
      const before = connections;
      const run = await runConnect({ ...webfetchRule, agent: { sandbox: 'on' } });
      expect(run.code).toBe(0);
      expect(run.toolResult).toContain('\\"sandboxed\\":true');
      expect(run.toolResult).not.toContain('hello');
      expect(connections).toBe(before);
    },
  },
  {
    name: 'agent.network: false says the same explicitly',
    async check() {
      const before = connections;
      const run = await runConnect({ ...webfetchRule, agent: { sandbox: 'on', network: false } });
      expect(run.toolResult).not.toContain('hello');
      expect(connections).toBe(before);
    },
  },
  {
    name: 'a project .oy/config.json cannot turn the network on',
    async check() {
      const before = connections;
      mkdirSync(path.join(workspace, '.oy'));
      writeFileSync(path.join(workspace, '.oy', 'config.json'), '{"agent": {"network": true}}');
      const run = await runConnect({ agent: { sandbox: 'on' } });
      expect(run.toolResult).not.toContain('hello');
      expect(connections).toBe(before);
    },
  },
  {
    name: 'control: agent.network: true in the user config lets the command connect',
    async check() {
      const before = connections;
      const run = await runConnect({ agent: { sandbox: 'on', network: true } });
      expect(run.code).toBe(0);
      expect(run.toolResult).toContain('hello');
      expect(connections).toBe(before + 1);
    },
  },
];

describe.skipIf(!probe.available)('sandbox network suite (bwrap, built CLI)', () => {
  it.each(cases)('$name', async ({ check }) => check(), 60_000);

  it('counts its cases', () => {
    console.log(`sandbox network suite: ${cases.length} cases`);
    expect(cases.length).toBe(4);
  });
});

// Say why in the run's output rather than passing silently.
if (!probe.available) {
  describe(`sandbox network suite skipped: ${probe.reason}`, () => {
    it.skip('bwrap does not work on this machine', () => {});
  });
}
