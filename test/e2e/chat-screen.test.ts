import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/safety/redact/index.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { OY_BIN } from '../support/run-oy.js';
import { countMatches, hasTmux, startTmux, type TmuxTerminal } from '../support/tmux.js';
import { randomChars } from '../support/vendor-token-samples.js';

/**
 * What a person sees in `oy chat`, in one real terminal (tmux, 60 columns) kept for the whole file:
 * the spinner, text streamed before its line ends, wrapped Markdown with a table, folded command
 * output and /output, statuses (`denied by you`, `denied by rule …`, `interrupted`), /mode, /diff, `@file` with Tab,
 * and a resize. The cases run in order against the same chat, each waiting for its own prompt.
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const COLUMNS = 60;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LONG_WORD = 'antidisestablishmentarianism';
/** How long the spinner case's model takes to answer, so the spinner has time to be seen. */
const SLOW_ANSWER_MS = 2500;
/** How long a screen may take to show the spinner: generous for a loaded machine, inside SLOW_ANSWER_MS. */
const SPINNER_WAIT_MS = 2000;

let fake: FakeProviderServer;
let workspace: string;
let stateHome: string;
let chat: TmuxTerminal;
/** Prompts the screen has shown so far. */
let prompts = 0;

const TITLE = hasTmux
  ? 'oy chat screen (tmux)'
  : 'oy chat screen (skipped: tmux is not installed; .ci/run installs it)';

/** Waits for the next prompt and returns the screen. */
async function nextPrompt(timeoutMs?: number): Promise<string> {
  prompts += 1;
  return chat.waitForPrompt(prompts, 'oy>', timeoutMs);
}

/** The screen since the last `oy> <typed>` line. */
function since(screen: string, typed: string): string {
  return screen.slice(screen.lastIndexOf(`oy> ${typed}`));
}

function lastRequestText(): string {
  return JSON.stringify(fake.modelCalls.at(-1)!.body);
}

describe.skipIf(!hasTmux)(TITLE, () => {
  beforeAll(async () => {
    fake = await startFakeProvider();
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-chat-screen-')));
    stateHome = mkdtempSync(path.join(tmpdir(), 'oy-chat-screen-state-'));
    // A deny rule for the "denied by rule" status; no other case here runs rm.
    const userConfig = process.env.OY_CONFIG!;
    mkdirSync(path.dirname(userConfig), { recursive: true });
    writeFileSync(userConfig, JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
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
      rows: 30,
    });
    await nextPrompt();
  });
  afterAll(async () => {
    await chat?.kill();
    await fake?.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(stateHome, { recursive: true, force: true });
  });

  it('shows a spinner with the elapsed time at once, and the tokens once known', async () => {
    writeFileSync(path.join(workspace, 'notes.md'), 'old line\nkept\n');
    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [{ name: 'read', arguments: { path: 'notes.md' } }],
        usage: { inputTokens: 1234, outputTokens: 56 },
        latencyMs: SLOW_ANSWER_MS,
      },
      { kind: 'answer', text: 'Read it.', latencyMs: SLOW_ANSWER_MS },
    );
    await chat.submit('spin');
    // A generous wait for the screen, well inside the model's latency: the spinner is up at once.
    await chat.waitFor(/waiting for the model · \d+\.\ds/, SPINNER_WAIT_MS);
    // After the first call's usage, while the second call waits.
    await chat.waitFor(/waiting for the model · \d+\.\ds · 1,234 tokens in · 56 out/);
    const screen = since(await nextPrompt(), 'spin');
    expect(screen).toContain('Read it.');
    expect(screen).toMatch(/• read notes\.md ok \d+ ms/);
    // The spinner takes its line away when the answer comes.
    expect(screen).not.toContain('waiting for the model');
    fake.assertDone();
  });

  it('streams a line before its end has come', async () => {
    fake.enqueue({
      kind: 'answer',
      textChunks: ['The first words ', 'come early', ' and the rest much later.'],
      eventDelayMs: 400,
    });
    await chat.submit('slowly');
    const partial = await chat.waitFor((screen) => since(screen, 'slowly').includes('The first'));
    expect(since(partial, 'slowly')).not.toContain('much later');
    expect(since(await nextPrompt(), 'slowly')).toContain(
      'The first words come early and the rest much later.',
    );
  });

  it('wraps at the width without breaking words, keeps blank lines, draws tables', async () => {
    const paragraph = `This answer is long enough to wrap twice on a narrow screen, and ${LONG_WORD} must stay whole wherever the edge falls, as must every other word here.`;
    fake.enqueue(
      reply.text(
        [
          paragraph,
          '',
          'Second paragraph.',
          '',
          '| Tool | What it does | Mode |',
          '|------|--------------|:----:|',
          '| read | reads a file from the workspace, numbered | plan |',
          '| bash | runs a command | ask |',
          '',
          'After the table.',
        ].join('\n'),
      ),
    );
    await chat.submit('render');
    const screen = since(await nextPrompt(), 'render');
    const lines = screen.split('\n').slice(1, -2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(COLUMNS);
    const shownWords = lines.join(' ').split(/\s+/u);
    for (const word of paragraph.split(' ')) expect(shownWords).toContain(word);
    expect(screen).toMatch(/stay whole[\s\S]*\n\nSecond paragraph\.\n\n/u);
    expect(screen).not.toContain('|---');
    const rows = lines.filter((line) => line.includes('│'));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const bars = rows.map((line) => line.indexOf('│'));
    expect(new Set(bars).size).toBe(1);
    expect(screen).toMatch(/^─+┼─+┼─+$/mu);
    expect(screen).toContain('After the table.');
  });

  it('folds a command’s output to its first and last lines; /output shows it whole', async () => {
    fake.enqueue(reply.toolCall('bash', { command: 'seq 1 40' }), reply.text('Counted.'));
    await chat.submit('count');
    await chat.waitFor((screen) => since(screen, 'count').includes('Allow? [y]es'));
    await chat.submit('y');
    const screen = since(await nextPrompt(), 'count');
    expect(screen).toMatch(/• bash seq 1 40 ok \d+ ms/);
    expect(screen).toMatch(
      /│ 1\n.*│ 2\n.*│ 3\n.*│ 4\n.*… 32 more lines \(\/output shows them all\)\n.*│ 37\n/u,
    );
    expect(screen).toMatch(/│ 40\n/u);
    expect(screen).not.toMatch(/│ 20\n/u);

    await chat.submit('/output');
    const whole = since(await nextPrompt(), '/output');
    expect(whole).toContain('$ seq 1 40');
    for (const number of [1, 20, 40]) expect(whole).toMatch(new RegExp(`^${number}$`, 'mu'));
  });

  it('says "denied by you" for a no, and /diff shows what the chat changed', async () => {
    fake.enqueue(
      reply.toolCall('write', { path: 'notes.md', content: 'new line\nkept\n' }),
      reply.toolCall('write', { path: 'refused.txt', content: 'never\n' }),
      reply.text('One of two.'),
    );
    await chat.submit('write two');
    await chat.waitFor(
      (screen) => countMatches(since(screen, 'write two'), /Allow\? \[y\]es/) === 1,
    );
    await chat.submit('y');
    await chat.waitFor(
      (screen) => countMatches(since(screen, 'write two'), /Allow\? \[y\]es/) === 2,
    );
    await chat.submit('n');
    const screen = since(await nextPrompt(), 'write two');
    expect(screen).toMatch(/• write notes\.md ok \d+ ms/);
    expect(screen).toMatch(/• write refused\.txt denied by you \d+ ms/);

    await chat.submit('/diff');
    const diff = since(await nextPrompt(), '/diff');
    expect(diff).toContain('--- a/notes.md');
    expect(diff).toContain('+++ b/notes.md');
    expect(diff).toMatch(/^-old line$/mu);
    expect(diff).toMatch(/^\+new line$/mu);
    expect(diff).not.toContain('refused.txt');
  });

  it('says "denied by rule" with the rule that refused a command, without asking', async () => {
    writeFileSync(path.join(workspace, 'keep.txt'), 'kept\n');
    fake.enqueue(reply.toolCall('bash', { command: 'rm -f keep.txt' }), reply.text('Refused.'));
    await chat.submit('clean up');
    const screen = since(await nextPrompt(), 'clean up');
    expect(screen).toMatch(/• bash rm -f keep\.txt denied by rule Bash\(rm:\*\) \d+ ms/);
    expect(screen).not.toContain('Allow?');
    expect(existsSync(path.join(workspace, 'keep.txt'))).toBe(true);
  });

  it('says "interrupted" for a command stopped with Ctrl-C', async () => {
    fake.enqueue(reply.toolCall('bash', { command: 'touch started.txt && sleep 30' }));
    await chat.submit('long job');
    await chat.waitFor((screen) => since(screen, 'long job').includes('Allow? [y]es'));
    await chat.submit('y');
    await chat.waitFor(() => existsSync(path.join(workspace, 'started.txt')));
    await chat.press('C-c');
    const screen = since(await nextPrompt(15_000), 'long job');
    expect(screen).toMatch(/• bash touch started\.txt && sleep 30 interrupted \d+ ms/);
    expect(screen).not.toMatch(/sleep 30 ok/);
  });

  it('/mode: a bad name is one line; yolo asks before switching to auto', async () => {
    await chat.submit('/mode bogus');
    const bogus = since(await nextPrompt(), '/mode bogus');
    expect(bogus).toContain('error: unknown mode "bogus": choose plan, ask, edit, auto');
    expect(bogus).not.toContain('Commands:');
    expect(bogus.split('\n')).toHaveLength(3);

    await chat.submit('/mode yolo');
    await chat.waitFor((screen) => since(screen, '/mode yolo').includes('Switch to auto? [y/N]'));
    await chat.submit('n');
    const kept = since(await nextPrompt(), '/mode yolo');
    expect(kept).toContain('yolo is auto mode');
    expect(kept).toContain('mode stays ask');
  });

  it('@path completes with Tab and attaches the file, its secrets redacted; a secret file is asked about', async () => {
    const secret = `ghp_${randomChars(ALNUM, 36)}`;
    const envSecret = `sk-${randomChars(ALNUM, 48)}`;
    // Control: the redactor does know these values, so an unredacted attachment would leak them.
    const redactor = createRedactor();
    expect(redactor.redact(secret).text).not.toContain(secret);
    mkdirSync(path.join(workspace, 'src'));
    writeFileSync(
      path.join(workspace, 'src', 'alpha-module.ts'),
      `export const marker = 'attached-marker';\nconst token = "${secret}";\n`,
    );
    writeFileSync(path.join(workspace, 'src', 'beta.ts'), 'export {};\n');
    writeFileSync(path.join(workspace, '.env'), `OPENAI_API_KEY=${envSecret}\n`);
    fake.enqueue(reply.text('Seen the module.'));

    await chat.type('explain @src/al');
    await chat.press('Tab');
    // The capture drops trailing spaces; the space after the completed file name is typed over by Enter.
    await chat.waitFor((screen) => screen.endsWith('oy> explain @src/alpha-module.ts'));
    await chat.press('Enter');
    const screen = since(await nextPrompt(), 'explain');
    expect(screen).toContain('attached src/alpha-module.ts');
    expect(screen).toContain('Seen the module.');
    const request = lastRequestText();
    expect(request).toContain('attached-marker');
    expect(request).not.toContain(secret);

    const calls = fake.modelCalls.length;
    await chat.submit('check @.env');
    await chat.waitFor((text) => since(text, 'check @.env').includes('Allow? [y]es'));
    await chat.submit('n');
    const refused = since(await nextPrompt(), 'check @.env');
    expect(refused).toMatch(/error: @\.env: /u);
    expect(refused).toContain('nothing was sent');
    expect(fake.modelCalls).toHaveLength(calls);
    expect(JSON.stringify(fake.modelCalls.map((call) => call.body))).not.toContain(envSecret);
    fake.assertDone();
  });

  it('redraws the prompt on resize and wraps later answers at the new width', async () => {
    // Two rows at 60 columns, three at 40: a redraw that missed the resize would leave a stale row.
    const typed =
      'a question typed at sixty columns that is long enough to wrap onto more rows when narrower';
    await chat.type(typed);
    await chat.waitFor((screen) => screen.endsWith(`oy> ${typed}`));
    await chat.resize(40, 30);
    await chat.type(' and more');
    await chat.waitFor((screen) => screen.endsWith(`oy> ${typed} and more`));
    fake.enqueue(
      reply.text('Now the answer wraps at forty columns, so this sentence takes a few rows.'),
    );
    await chat.press('Enter');
    const screen = since(await nextPrompt(), typed);
    // The whole screen: a redraw that missed the resize leaves the prompt's old first row above.
    expect(countMatches(await chat.capture(), /oy> a question/u)).toBe(1);
    expect(lastRequestText()).toContain(`${typed} and more`);
    const answer = screen
      .split('\n')
      .filter((line) => !line.startsWith('oy>') && /Now the|columns|rows\./u.test(line));
    expect(answer.length).toBeGreaterThan(1);
    for (const line of answer) expect(line.length).toBeLessThanOrEqual(40);
    fake.assertDone();
  });
});
