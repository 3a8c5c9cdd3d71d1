import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { OY_BIN } from '../support/run-oy.js';
import { countMatches, hasTmux, startTmux, type TmuxTerminal } from '../support/tmux.js';

/**
 * `oy chat` asks about a workspace `.mcp.json` in a real terminal (tmux), as README.md "MCP servers"
 * says: once per start while the file is unapproved; "no" starts nothing and offers none of its tools
 * (and is not remembered); "yes" starts the server and is remembered for that workspace and that exact
 * content, so the next start asks nothing; an edited file asks again. Each server leaves a canary file
 * when it starts.
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const STDIO_SERVER = path.resolve(import.meta.dirname, '../fixtures/mcp/stdio-server.mjs');
const FILE_QUESTION = 'Start them now and whenever this file is unchanged? [y/N]';
const FILE_QUESTION_PATTERN = /Start them now and whenever this file is unchanged\? \[y\/N\]/u;
const TOOL_QUESTION = 'Allow? [y]es / [n]o / [a]lways for this session (default no):';

let fake: FakeProviderServer;
let workspace: string;
let stateHome: string;
let terminal: TmuxTerminal | undefined;

const TITLE = hasTmux
  ? 'oy chat: approving a workspace .mcp.json (tmux)'
  : 'oy chat: approving a workspace .mcp.json (skipped: tmux is not installed; .ci/run installs it)';

beforeAll(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-chat-mcp-')));
  stateHome = mkdtempSync(path.join(tmpdir(), 'oy-chat-mcp-state-'));
});
afterAll(async () => {
  await terminal?.kill();
  await fake.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(stateHome, { recursive: true, force: true });
});

/** Writes the workspace's `.mcp.json`: one stdio server that creates `canary` when it starts. */
function writeMcpFile(canary: string): void {
  writeFileSync(
    path.join(workspace, '.mcp.json'),
    JSON.stringify({
      mcpServers: { repo: { command: process.execPath, args: [STDIO_SERVER, '--canary', canary] } },
    }),
  );
}

/** Starts `oy chat` in the workspace; resolves once it shows the file question or its prompt. */
async function startChat(): Promise<TmuxTerminal> {
  await terminal?.kill();
  terminal = await startTmux({
    command: [process.execPath, OY_BIN, 'chat', '--model', MODEL],
    cwd: workspace,
    env: {
      ...process.env,
      ...fakeProviderEnv(fake),
      XDG_STATE_HOME: stateHome,
      TERM: 'xterm-256color',
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
    },
  });
  await terminal.waitFor((screen) => screen.includes(FILE_QUESTION) || /^oy>/mu.test(screen));
  return terminal;
}

/** Sends one message the fake answers with `text`; returns the names of the tools that request offered. */
async function offeredTools(chat: TmuxTerminal, prompts: number): Promise<string[]> {
  fake.enqueue(reply.text('Noted.'));
  const before = fake.modelCalls.length;
  await chat.submit('what tools do you have?');
  await chat.waitForPrompt(prompts);
  const body = fake.modelCalls[before]!.body as { tools?: Array<{ name: string }> };
  return (body.tools ?? []).map((tool) => tool.name);
}

async function quit(chat: TmuxTerminal): Promise<void> {
  await chat.press('C-d');
  expect(await chat.waitForExit()).toBe(0);
}

describe.skipIf(!hasTmux)(TITLE, () => {
  it('asks once; "no" starts nothing; "yes" is remembered for this content; an edit asks again', async () => {
    const canary = path.join(workspace, 'STARTED');
    writeMcpFile(canary);

    // 1. Asked, with the server's command shown; "no": no server, no tools, and a warning says why.
    let chat = await startChat();
    let screen = await chat.waitFor(FILE_QUESTION_PATTERN);
    expect(screen).toContain("This workspace's .mcp.json wants to start these MCP servers:");
    expect(screen).toContain(STDIO_SERVER);
    await chat.submit('n');
    screen = await chat.waitForPrompt(1);
    expect(countMatches(screen, FILE_QUESTION_PATTERN)).toBe(1);
    expect(screen).toContain('were not approved, so they are not started');
    expect((await offeredTools(chat, 2)).some((name) => name.startsWith('mcp__'))).toBe(false);
    expect(existsSync(canary)).toBe(false);
    await quit(chat);

    // 2. "No" was not remembered: asked again. "Yes": the server starts and its tool works.
    chat = await startChat();
    await chat.waitFor(FILE_QUESTION_PATTERN);
    await chat.submit('y');
    await chat.waitForPrompt(1);
    expect(existsSync(canary)).toBe(true);
    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [{ name: 'mcp__repo__echo', arguments: { text: 'through the approved file' } }],
      },
      reply.text('It echoed.'),
    );
    await chat.submit('use the repo tool');
    // Chat's ask mode asks before an MCP call, as for any tool a rule does not allow.
    await chat.waitFor((text) => text.includes(TOOL_QUESTION));
    await chat.submit('y');
    screen = await chat.waitForPrompt(2);
    expect(screen).toContain('It echoed.');
    expect(JSON.stringify(fake.modelCalls.at(-1)!.body)).toContain(
      'stdio echo: through the approved file',
    );
    await quit(chat);

    // 3. Remembered for this workspace and content: no question, the tools are offered at once.
    rmSync(canary);
    chat = await startChat();
    screen = await chat.waitForPrompt(1);
    expect(screen).not.toContain(FILE_QUESTION);
    expect(await offeredTools(chat, 2)).toContain('mcp__repo__echo');
    expect(existsSync(canary)).toBe(true);
    await quit(chat);

    // 4. An edited file is a new file: asked again, and "no" starts nothing.
    const edited = path.join(workspace, 'STARTED-EDITED');
    writeMcpFile(edited);
    chat = await startChat();
    await chat.waitFor(FILE_QUESTION_PATTERN);
    await chat.submit('n');
    await chat.waitForPrompt(1);
    expect((await offeredTools(chat, 2)).some((name) => name.startsWith('mcp__'))).toBe(false);
    expect(existsSync(edited)).toBe(false);
    await quit(chat);
    fake.assertDone();
  });
});
