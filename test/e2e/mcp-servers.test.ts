import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { startHttpMcpServer, type HttpMcpServer } from '../fixtures/mcp/start-http-mcp-server.js';
import { isRunning, waitUntilGone } from '../support/process-state.js';
import { OY_BIN, runOy } from '../support/run-oy.js';

/** MCP servers end to end: the built CLI, the fake provider, a stdio and an HTTP test server. */
const MODEL = 'anthropic::claude-haiku-4-5';
const STDIO_SERVER = path.resolve(import.meta.dirname, '../fixtures/mcp/stdio-server.mjs');

let fake: FakeProviderServer;
let http: HttpMcpServer;
let cases = 0;

beforeAll(async () => {
  [fake, http] = await Promise.all([startFakeProvider(), startHttpMcpServer()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), http.close()]);
  console.log(`mcp servers e2e: ${cases} cases`);
});

function makeWorkspace(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-mcp-e2e-')));
}

/** Runs `oy run --json` with a user config of its own; returns the events and what the model was sent. */
async function runWith(
  workspace: string,
  config: Record<string, unknown>,
  args: string[],
  env: Record<string, string> = {},
) {
  const configFile = path.join(workspace, '..', `${path.basename(workspace)}-config.json`);
  writeFileSync(configFile, JSON.stringify(config));
  const first = fake.modelCalls.length;
  const result = await runOy(['run', '--json', '--no-session', '--model', MODEL, ...args], {
    cwd: workspace,
    env: { ...fakeProviderEnv(fake), OY_CONFIG: configFile, ...env },
  });
  const events = result.stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AgentEvent);
  return { ...result, events, calls: fake.modelCalls.slice(first).map((call) => call.body) };
}

function calls(toolCalls: Array<{ name: string; arguments: unknown }>) {
  return { kind: 'answer' as const, toolCalls };
}

function stdioServer(extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [STDIO_SERVER], ...extra };
}

function toolNames(body: unknown): string[] {
  return ((body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
}

function results(events: AgentEvent[]) {
  return events.filter((event) => event.type === 'tool_result');
}

describe('MCP servers', () => {
  it('offers the tools of a stdio and an HTTP server, and their results reach the model', async () => {
    cases += 1;
    const workspace = makeWorkspace();
    const secret = `mcpsecret${randomBytes(6).toString('hex')}`;
    const visible = `plain${randomBytes(4).toString('hex')}`;
    fake.enqueue(
      calls([
        { name: 'mcp__local__echo', arguments: { text: 'from stdio' } },
        { name: 'mcp__remote__echo', arguments: { text: 'over http' } },
        { name: 'mcp__local__show_env', arguments: { name: 'DEPLOY_TOKEN' } },
        { name: 'mcp__local__show_env', arguments: { name: 'VISIBLE_SETTING' } },
        // A user server runs in a neutral folder, never the workspace: it writes there by path.
        { name: 'mcp__local__write_note', arguments: { name: path.join(workspace, 'note.txt') } },
        {
          name: 'mcp__remote__write_note',
          arguments: { name: path.join(workspace, 'denied.txt') },
        },
      ]),
      reply.text('done'),
    );
    const run = await runWith(
      workspace,
      {
        mcpServers: {
          local: stdioServer({ env: { VISIBLE_SETTING: visible } }),
          remote: { url: http.url, headers: { 'x-test': 'from-config' } },
        },
        permissions: { deny: ['Mcp(remote:write_note)'] },
      },
      ['--mode', 'auto', 'use the tools'],
      { DEPLOY_TOKEN: secret },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(toolNames(run.calls[0])).toEqual(
      expect.arrayContaining(['mcp__local__echo', 'mcp__remote__write_note', 'mcp__local__hang']),
    );
    const sent = JSON.stringify(run.calls[1]);
    expect(sent).toContain('stdio echo: from stdio');
    expect(sent).toContain('http echo: over http');
    expect(sent).toContain('image (image/png) not shown');
    // The bash tool's scrub holds for servers: a credential stays out, the server's own env goes in.
    expect(sent).toContain('DEPLOY_TOKEN=(unset)');
    expect(sent).not.toContain(secret);
    expect(sent).toContain(`VISIBLE_SETTING=${visible}`);
    expect(http.requestHeaders.some((headers) => headers['x-test'] === 'from-config')).toBe(true);
    const outcomes = results(run.events);
    expect(outcomes.slice(0, -1).every((event) => event.ok)).toBe(true);
    // The deny rule refuses the HTTP server's write_note; the stdio one (control) ran.
    expect(existsSync(path.join(workspace, 'note.txt'))).toBe(true);
    expect(outcomes.at(-1)?.content).toContain('deny rule Mcp(remote:write_note)');
    expect(existsSync(path.join(workspace, 'denied.txt'))).toBe(false);
  });

  it('offers only read-only tools in plan mode, and asks (refuses) for them there unless a rule allows', async () => {
    cases += 1;
    const workspace = makeWorkspace();
    fake.enqueue(
      calls([
        { name: 'mcp__local__echo', arguments: { text: 'allowed' } },
        { name: 'mcp__local__show_env', arguments: { name: 'HOME' } },
        { name: 'mcp__local__write_note', arguments: { name: 'plan-note.txt' } },
      ]),
      reply.text('done'),
    );
    const run = await runWith(
      workspace,
      { mcpServers: { local: stdioServer() }, permissions: { allow: ['Mcp(local:echo)'] } },
      ['--mode', 'plan', 'look'],
    );
    expect(run.code, run.stderr).toBe(0);
    const offered = toolNames(run.calls[0]);
    expect(offered).toEqual(expect.arrayContaining(['mcp__local__echo', 'mcp__local__show_env']));
    expect(offered).not.toContain('mcp__local__write_note');
    const [echo, showEnv, write] = results(run.events);
    expect(echo?.ok).toBe(true);
    expect(showEnv?.ok).toBe(false);
    expect(showEnv?.content).toContain('Mcp(local:show_env)');
    expect(write?.ok).toBe(false);
    expect(write?.content).toContain('plan mode');
    expect(existsSync(path.join(workspace, 'plan-note.txt'))).toBe(false);
  });

  it('cuts a call that hangs at its timeout, and gives up on a server that never starts', async () => {
    cases += 1;
    const workspace = makeWorkspace();
    fake.enqueue(
      calls([
        { name: 'mcp__slow__hang', arguments: {} },
        { name: 'mcp__slow__echo', arguments: { text: 'after the restart' } },
      ]),
      reply.text('done'),
    );
    const run = await runWith(
      workspace,
      {
        mcpServers: {
          slow: stdioServer({ timeoutSeconds: 1 }),
          stuck: {
            command: process.execPath,
            args: [STDIO_SERVER, '--hang-on-start'],
            startupTimeoutSeconds: 1,
          },
        },
      },
      ['--mode', 'auto', 'wait'],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/MCP server stuck: could not start within 1 s/);
    expect(toolNames(run.calls[0]).some((name) => name.startsWith('mcp__stuck__'))).toBe(false);
    const [hang, echo] = results(run.events);
    expect(hang?.content).toContain('did not answer within 1 s');
    expect(echo?.content).toContain('stdio echo: after the restart');
  });

  it('ignores a workspace .mcp.json until the user approves it', async () => {
    cases += 1;
    const workspace = makeWorkspace();
    const canary = path.join(workspace, 'STARTED');
    writeFileSync(
      path.join(workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          repo: { command: process.execPath, args: [STDIO_SERVER, '--canary', canary] },
        },
      }),
    );
    // A project .oy/config.json cannot name servers either.
    const projectConfig = path.join(workspace, '.oy');
    mkdirSync(projectConfig);
    writeFileSync(
      path.join(projectConfig, 'config.json'),
      JSON.stringify({
        mcpServers: { sneaky: stdioServer({ args: [STDIO_SERVER, '--canary', canary] }) },
      }),
    );
    fake.enqueue(reply.text('nothing'));
    const before = await runWith(workspace, {}, ['--mode', 'auto', 'hello']);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stderr).toContain('were not approved');
    expect(existsSync(canary)).toBe(false);
    expect(toolNames(before.calls[0]).some((name) => name.startsWith('mcp__'))).toBe(false);

    // Control: once approved, the same file's server starts and its tools are offered.
    const approved = await runOy(['mcp', 'approve'], {
      cwd: workspace,
      env: { OY_CONFIG: path.join(workspace, 'none.json') },
    });
    expect(approved.code, approved.stderr).toBe(0);
    fake.enqueue(reply.text('now with tools'));
    const after = await runWith(workspace, {}, ['--mode', 'auto', 'hello']);
    expect(after.code, after.stderr).toBe(0);
    expect(existsSync(canary)).toBe(true);
    expect(toolNames(after.calls[0])).toContain('mcp__repo__echo');
    expect(toolNames(after.calls[0]).some((name) => name.startsWith('mcp__sneaky__'))).toBe(false);
    fake.assertDone();
  });

  it('remembers an approval per workspace and per content: an edit or another workspace asks again', async () => {
    cases += 1;
    const first = makeWorkspace();
    const second = makeWorkspace();
    const canary = (workspace: string) => path.join(workspace, 'STARTED');
    const content = (workspace: string) =>
      JSON.stringify({
        mcpServers: {
          repo: {
            command: process.execPath,
            args: [STDIO_SERVER, '--canary', canary(workspace)],
            env: { REPO_SETTING: 'shown-before-approval' },
          },
        },
      });
    writeFileSync(path.join(first, '.mcp.json'), content(first));
    const approved = await runOy(['mcp', 'approve'], { cwd: first });
    expect(approved.code, approved.stderr).toBe(0);
    fake.enqueue(reply.text('with tools'));
    const used = await runWith(first, {}, ['--mode', 'auto', 'hello']);
    expect(used.code, used.stderr).toBe(0);
    expect(existsSync(canary(first))).toBe(true);

    // One byte more: the file is another file, and is ignored until approved again.
    rmSync(canary(first));
    appendFileSync(path.join(first, '.mcp.json'), '\n');
    fake.enqueue(reply.text('edited'));
    const edited = await runWith(first, {}, ['--mode', 'auto', 'hello']);
    expect(edited.stderr).toContain('were not approved');
    expect(existsSync(canary(first))).toBe(false);
    expect(toolNames(edited.calls[0]).some((name) => name.startsWith('mcp__'))).toBe(false);

    // The same servers in another workspace: not approved there.
    writeFileSync(path.join(second, '.mcp.json'), content(second));
    fake.enqueue(reply.text('elsewhere'));
    const elsewhere = await runWith(second, {}, ['--mode', 'auto', 'hello']);
    expect(elsewhere.stderr).toContain('were not approved');
    expect(existsSync(canary(second))).toBe(false);
    // oy mcp list and oy doctor start none of them, and the list shows what approving would run.
    const listed = await runOy(['mcp', 'list'], { cwd: second });
    expect(listed.stdout).toContain('not approved, not started');
    expect(listed.stdout).toContain('REPO_SETTING="shown-before-approval"');
    expect(listed.stdout).toContain(JSON.stringify(STDIO_SERVER));
    const doctor = await runOy(['doctor'], { cwd: second });
    expect(doctor.stdout + doctor.stderr).toContain('not approved');
    expect(existsSync(canary(second))).toBe(false);
    fake.assertDone();
  });
});

describe('MCP servers stop with oy', () => {
  /** A server behind a shell that waits for it, lingering after its stdin closes: only a group kill stops both. */
  function wrappedServer(pidFile: string, hangMark: string) {
    return {
      command: 'sh',
      args: [
        '-c',
        `"${process.execPath}" "${STDIO_SERVER}" --linger --pid-file "${pidFile}"; true`,
      ],
      env: { HANG_MARK: hangMark },
    };
  }

  async function waitForFile(file: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error(`${file} never appeared`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('stops every server process when the run ends', async () => {
    cases += 1;
    const workspace = makeWorkspace();
    const pidFile = path.join(workspace, '..', `${path.basename(workspace)}.pid`);
    fake.enqueue(
      calls([{ name: 'mcp__wrapped__echo', arguments: { text: 'hi' } }]),
      reply.text('done'),
    );
    const run = await runWith(
      workspace,
      { mcpServers: { wrapped: wrappedServer(pidFile, path.join(workspace, 'HANGING')) } },
      ['--mode', 'auto', 'echo'],
    );
    expect(run.code, run.stderr).toBe(0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitUntilGone([pid])).toEqual([]);
  });

  it.each([
    ['one Ctrl-C (the run winds down)', 1],
    ['two Ctrl-C (oy quits at once)', 2],
  ])('stops every server process on %s, a call in flight', async (_label, presses) => {
    cases += 1;
    const workspace = makeWorkspace();
    const pidFile = path.join(workspace, '..', `${path.basename(workspace)}.pid`);
    const hanging = path.join(workspace, 'HANGING');
    const configFile = path.join(workspace, '..', `${path.basename(workspace)}-config.json`);
    writeFileSync(
      configFile,
      JSON.stringify({ mcpServers: { wrapped: wrappedServer(pidFile, hanging) } }),
    );
    fake.enqueue(calls([{ name: 'mcp__wrapped__hang', arguments: {} }]));
    const child = spawn(
      process.execPath,
      [OY_BIN, 'run', '--no-session', '--mode', 'auto', '--model', MODEL, 'wait for it'],
      {
        cwd: workspace,
        env: { ...process.env, NO_COLOR: '1', ...fakeProviderEnv(fake), OY_CONFIG: configFile },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitForFile(hanging);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isRunning(pid)).toBe(true);
    for (let press = 0; press < presses; press += 1) child.kill('SIGINT');
    expect(await code, stderr).toBe(130);
    expect(await waitUntilGone([pid])).toEqual([]);
  });
});
