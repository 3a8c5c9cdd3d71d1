import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { OY_BIN } from '../support/run-oy.js';
import { countMatches, hasTmux, startTmux, type TmuxTerminal } from '../support/tmux.js';

/**
 * What an approval shows in a real terminal (tmux, 160 x 40, the built CLI): a command padded with
 * 8,000 spaces shows both of its commands on one line with the padding counted, on the screen as it
 * stands at the question; an MCP argument of 50,000 characters shows its head and tail, counts the
 * rest, and `v` pages through all of it before the question comes back. Each no leaves its canary
 * unfired. The approval block is snapshotted, normalised (workspace path, sandbox line).
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const STDIO_SERVER = path.resolve(import.meta.dirname, '../fixtures/mcp/stdio-server.mjs');
const COLUMNS = 160;
const ROWS = 40;
// Generous: the machine may be busy; waiting longer never makes a test pass that should fail.
const WAIT_MS = 60_000;

let fake: FakeProviderServer;
let workspace: string;
let stateHome: string;
let chat: TmuxTerminal;
let prompts = 0;

const TITLE = hasTmux
  ? 'oy chat approval previews (tmux)'
  : 'oy chat approval previews (skipped: tmux is not installed; .ci/run installs it)';

/** A query of about `length` characters: SELECT, comment lines, DROP TABLE at the very end. */
function longQuery(length: number): string {
  const head = 'SELECT id, name FROM users WHERE active;\n';
  const tail = 'DROP TABLE users;';
  const line = '-- keep the nightly report readable\n';
  return head + line.repeat(Math.floor((length - head.length - tail.length) / line.length)) + tail;
}

/** The approval block: from `<tool> wants to:` to the question, paths and the sandbox line normalised. */
function approvalBlock(screen: string, tool: string): string {
  const start = screen.lastIndexOf(`${tool} wants to:`);
  const end = screen.indexOf('(default no):', start);
  return screen
    .slice(start, end + '(default no):'.length)
    .replaceAll(workspace, '<root>')
    .replace(/^sandbox: .*$/mu, 'sandbox: <sandbox>');
}

async function nextPrompt(): Promise<string> {
  prompts += 1;
  return chat.waitForPrompt(prompts, 'oy>', WAIT_MS);
}

describe.skipIf(!hasTmux)(TITLE, () => {
  beforeAll(async () => {
    fake = await startFakeProvider();
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-approval-preview-')));
    stateHome = mkdtempSync(path.join(tmpdir(), 'oy-approval-preview-state-'));
    const userConfig = process.env.OY_CONFIG!;
    mkdirSync(path.dirname(userConfig), { recursive: true });
    writeFileSync(
      userConfig,
      JSON.stringify({
        mcpServers: { local: { command: process.execPath, args: [STDIO_SERVER] } },
      }),
    );
    chat = await startTmux({
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
      columns: COLUMNS,
      rows: ROWS,
    });
    await nextPrompt();
  });
  afterAll(async () => {
    await chat?.kill();
    await fake?.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(stateHome, { recursive: true, force: true });
  });

  it('8,000 spaces between two commands: both on screen at the question, the padding counted', async () => {
    const command = `touch "$PWD/PWNED";${' '.repeat(8000)}npm test`;
    fake.enqueue(reply.toolCall('bash', { command }), reply.text('Not run.'));
    await chat.submit('run the tests');
    await chat.waitFor(/Allow all 8,027 characters\?/u, WAIT_MS);
    // Only what is on the screen now, without scrolling back.
    const screen = await chat.capture({ isScreenOnly: true });
    expect(screen).toContain('$ touch "$PWD/PWNED";⟨8,000 spaces⟩npm test');
    expect(screen).toContain('bash wants to: run touch "$PWD/PWNED";⟨8,000 spaces⟩npm test');
    expect(approvalBlock(screen, 'bash')).toMatchSnapshot();

    await chat.submit('n');
    const after = await nextPrompt();
    expect(after).toMatch(/• bash touch "\$PWD\/PWNED";⟨8,000 spaces⟩npm test denied by you/u);
    expect(existsSync(path.join(workspace, 'PWNED'))).toBe(false);
    fake.assertDone();
  });

  it('a 50,000-character MCP argument: head and tail, the rest counted, v pages through it all', async () => {
    const text = longQuery(50_000);
    fake.enqueue(reply.toolCall('mcp__local__echo', { text }), reply.text('Not sent.'));
    const calls = fake.modelCalls.length;
    await chat.submit('query the database');
    const question =
      /Allow all [\d,]+ characters\? \[y\]es \/ \[n\]o \/ \[a\]lways for this session \/ \[v\]iew them all/u;
    // The first test's question matches too: this one is the second.
    await chat.waitFor((shown) => countMatches(shown, question) === 2, WAIT_MS);
    const screen = await chat.capture({ isScreenOnly: true });
    expect(screen).toContain('mcp__local__echo wants to: call the MCP tool local:echo');
    expect(screen).toContain('"text": "SELECT id, name FROM users WHERE active;\\n-- keep');
    expect(screen).toContain('DROP TABLE users;"');
    expect(screen).toMatch(/⟨… [\d,]+ characters not shown; answer v to see them all …⟩/u);
    expect(approvalBlock(screen, 'mcp__local__echo')).toMatchSnapshot();

    await chat.submit('v');
    await chat.waitFor(
      /-- rows 1-39 of \d+: Enter shows more, q goes back to the question --/u,
      WAIT_MS,
    );
    await chat.press('Enter');
    await chat.waitFor(/-- rows 1-78 of \d+/u, WAIT_MS);
    await chat.submit('q');
    await chat.waitFor((shown) => countMatches(shown, question) === 3, WAIT_MS);

    await chat.submit('n');
    await nextPrompt();
    // The server never got the call: the model read the refusal, not an echo.
    const sent = JSON.stringify(fake.modelCalls.slice(calls).map((call) => call.body));
    expect(sent).toContain('the user said no');
    expect(sent).not.toContain('stdio echo:');
    fake.assertDone();
  });
});
