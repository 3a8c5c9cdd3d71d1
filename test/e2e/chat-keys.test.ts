import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { StreamGate } from '../fakes/stream-gate.js';
import { OY_BIN } from '../support/run-oy.js';
import { countMatches, hasTmux, startTmux, type TmuxTerminal } from '../support/tmux.js';

/**
 * The keys of `oy chat` that people's hands know from readline, Claude Code and Codex, pressed in a
 * real terminal (tmux) against the built CLI and the fake provider: Esc while an answer streams and
 * while a command runs, Esc Esc, Ctrl-R, Tab, Shift+Tab; then the resume recap and the exit hint.
 * Every wait is on the screen's content, never on a clock.
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const WAIT_MS = 30_000;
/** Words the paced answer would stream in all; the test lets out only the first few. */
const PACED_WORDS = 40;
/** Wire events let out before Esc: the stream's opening events, then the first words. */
const EVENTS_BEFORE_ESC = 6;

let fake: FakeProviderServer;
let workspace: string;
let stateHome: string;
const terminals: TmuxTerminal[] = [];

const TITLE = hasTmux
  ? 'oy chat keys (tmux)'
  : 'oy chat keys (skipped: tmux is not installed; .ci/run installs it)';

async function startChat(args: string[] = [], cwd = workspace): Promise<TmuxTerminal> {
  const terminal = await startTmux({
    command: [process.execPath, OY_BIN, 'chat', '--model', MODEL, ...args],
    cwd,
    env: {
      ...process.env,
      ...fakeProviderEnv(fake),
      XDG_STATE_HOME: stateHome,
      TERM: 'xterm-256color',
      NO_COLOR: '1',
      FORCE_COLOR: undefined,
    },
  });
  terminals.push(terminal);
  await lastLineIs(terminal, 'oy>');
  return terminal;
}

const lines = (screen: string) => screen.split('\n').map((line) => line.trimEnd());

/** Waits until the bottom line of the screen is `expected` (the editor's line, as typed or drawn). */
function lastLineIs(terminal: TmuxTerminal, expected: string): Promise<string> {
  return terminal.waitFor((screen) => lines(screen).at(-1) === expected, WAIT_MS);
}

/** Waits until the screen has shown `text` `count` times (output of earlier cases stays on screen). */
function shown(terminal: TmuxTerminal, text: string | RegExp, count = 1): Promise<string> {
  const pattern =
    typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'), 'u') : text;
  return terminal.waitFor((screen) => countMatches(screen, pattern) >= count, WAIT_MS);
}

/** The text of the user message that ends a recorded Anthropic request. */
function lastUserText(index: number): string {
  const body = fake.modelCalls[index]!.body as {
    messages: { role: string; content: string | { type: string; text?: string }[] }[];
  };
  const last = body.messages.findLast((message) => message.role === 'user');
  if (last === undefined) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('');
}

describe.skipIf(!hasTmux)(TITLE, () => {
  beforeAll(async () => {
    fake = await startFakeProvider();
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-chat-keys-')));
    stateHome = mkdtempSync(path.join(tmpdir(), 'oy-chat-keys-state-'));
    mkdirSync(path.join(workspace, 'src'));
    writeFileSync(path.join(workspace, '.gitignore'), '*.log\n');
    for (const file of ['main.ts', 'util.ts', 'debug.log'])
      writeFileSync(path.join(workspace, 'src', file), 'x\n');
  });
  afterAll(async () => {
    for (const terminal of terminals) await terminal.kill();
    await fake.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(stateHome, { recursive: true, force: true });
  });

  describe('in one chat, case after case', () => {
    let chat: TmuxTerminal;
    /** Model calls before the current case. */
    let callsBefore = 0;
    beforeAll(async () => {
      chat = await startChat();
    });
    afterEach(() => {
      fake.assertDone();
      callsBefore = fake.modelCalls.length;
    });

    it('Esc stops a streaming answer: the text stops growing, the chat goes on', async () => {
      const gate = new StreamGate();
      const words = Array.from({ length: PACED_WORDS }, (_, index) => `w${index + 10} `);
      fake.enqueue({ kind: 'answer', textChunks: words, gate }, reply.text('After Esc.'));
      gate.allow(EVENTS_BEFORE_ESC);
      await chat.submit('stream slowly');
      await shown(chat, 'w11');
      await chat.press('Escape');
      const stopped = await shown(chat, /^interrupted: /mu);
      await lastLineIs(chat, 'oy>');
      const atStop = countMatches(stopped, /\bw\d\d\b/u);
      expect(atStop).toBeGreaterThanOrEqual(2);
      expect(atStop).toBeLessThanOrEqual(EVENTS_BEFORE_ESC);
      // Everything else is let out; the client has hung up, so none of it may reach the screen.
      gate.allowAll();
      expect((await gate.ended).closedEarly).toBe(true);
      await chat.submit('and now?');
      const after = await shown(chat, 'After Esc.');
      expect(countMatches(after, /\bw\d\d\b/u)).toBe(atStop);
      expect(lastUserText(callsBefore + 1)).toBe('and now?');
    });

    it('Esc stops a running command: its status says interrupted and its process is gone', async () => {
      // A sleep no other process has: its command line is found in /proc, whatever sandbox runs it.
      const seconds = `30.${Date.now() % 100_000}${process.pid}`;
      fake.enqueue(
        reply.toolCall('bash', { command: `sleep ${seconds}` }),
        reply.text('Still here.'),
      );
      await chat.submit('run the long job');
      await shown(chat, /Allow\? \[y\]es/u, 1);
      await chat.submit('y');
      await chat.waitFor(() => isRunning(['sleep', seconds]), WAIT_MS);
      await chat.press('Escape');
      const screen = await shown(chat, /• bash sleep \S+ interrupted \d+ ms/u);
      expect(screen).not.toMatch(/• bash sleep \S+ ok \d+ ms/u);
      // The sleep is gone long before its 30 s: the command's process group was stopped.
      await chat.waitFor(() => !isRunning(['sleep', seconds]), WAIT_MS);
      await lastLineIs(chat, 'oy>');
      await chat.submit('still there?');
      await shown(chat, 'Still here.');
      // The interrupted turn never asked the model again; the next prompt did.
      expect(fake.modelCalls.length - callsBefore).toBe(2);
    });

    it('Ctrl-R finds an older prompt; Enter sends it', async () => {
      fake.enqueue(reply.text('First.'), reply.text('Second.'), reply.text('Found it.'));
      await chat.submit('alpha question about parsing');
      await shown(chat, 'First.');
      await lastLineIs(chat, 'oy>');
      await chat.submit('beta question');
      await shown(chat, 'Second.');
      await lastLineIs(chat, 'oy>');
      await chat.press('C-r');
      await chat.type('alp');
      await lastLineIs(chat, "(reverse-i-search)`alp': alpha question about parsing");
      await chat.press('Enter');
      await shown(chat, 'Found it.');
      expect(lastUserText(fake.modelCalls.length - 1)).toBe('alpha question about parsing');
      await lastLineIs(chat, 'oy>');
      // Ctrl-G leaves a search with the input as it was.
      await chat.type('keep me');
      await chat.press('C-r');
      await chat.type('bet');
      await lastLineIs(chat, "(reverse-i-search)`bet': beta question");
      await chat.press('C-g');
      await lastLineIs(chat, 'oy> keep me');
      await chat.press('C-u');
      await lastLineIs(chat, 'oy>');
    });

    it('Esc Esc on an empty line offers the previous prompt for editing', async () => {
      fake.enqueue(reply.text('Edited and sent.'));
      await chat.press('Escape');
      await shown(chat, 'Esc again: edit your previous prompt');
      await chat.press('Escape');
      await lastLineIs(chat, 'oy> alpha question about parsing');
      await chat.type(', briefly');
      await chat.press('Enter');
      await shown(chat, 'Edited and sent.');
      expect(lastUserText(fake.modelCalls.length - 1)).toBe(
        'alpha question about parsing, briefly',
      );
      await lastLineIs(chat, 'oy>');
    });

    it('Tab completes /mo (listing both), /he, and @src/ without what git ignores', async () => {
      await chat.type('/mo');
      await chat.press('Tab');
      const listed = await shown(chat, /^\/mode {2}\/model$/mu);
      expect(lines(listed).at(-1)).toBe('oy> /mode');
      await chat.press('C-u');
      await lastLineIs(chat, 'oy>');

      await chat.type('/he');
      await chat.press('Tab');
      await lastLineIs(chat, 'oy> /help');
      await chat.press('Enter');
      await shown(chat, /Ctrl-R +search earlier inputs/u);
      await lastLineIs(chat, 'oy>');

      await chat.type('look at @src/');
      await chat.press('Tab');
      const files = await shown(chat, /^main\.ts {2}util\.ts$/mu);
      expect(files).not.toContain('debug.log');
      await chat.type('u');
      await chat.press('Tab');
      await lastLineIs(chat, 'oy> look at @src/util.ts');
      await chat.press('C-u');
      await lastLineIs(chat, 'oy>');
      expect(fake.modelCalls.length).toBe(callsBefore);
    });

    it('Shift+Tab cycles the mode, asks before auto, and keeps what was typed', async () => {
      await chat.type('half a thought');
      await chat.press('BTab');
      await shown(chat, 'mode edit for the next turns (Shift+Tab: auto next)');
      await lastLineIs(chat, 'oy> half a thought');
      await chat.press('BTab');
      await shown(chat, 'Switch to auto? [y/N]:');
      await chat.submit('n');
      await shown(chat, 'mode plan for the next turns (Shift+Tab: ask next)');
      await lastLineIs(chat, 'oy> half a thought');
      await chat.press('C-u');
      await chat.submit('/status');
      const status = await shown(chat, /^mode {6}plan$/mu);
      expect(status).not.toMatch(/^mode {6}auto$/mu);
      await chat.press('BTab');
      await shown(chat, 'mode ask for the next turns (Shift+Tab: edit next)');
      await lastLineIs(chat, 'oy>');
    });

    it('an unknown command is one line naming the nearest one', async () => {
      await chat.submit('/mdoel');
      const screen = await shown(chat, 'unknown command /mdoel; did you mean /model?');
      await lastLineIs(chat, 'oy>');
      const after = screen.slice(screen.lastIndexOf('oy> /mdoel'));
      expect(lines(after)).toEqual([
        'oy> /mdoel',
        'unknown command /mdoel; did you mean /model?',
        'oy>',
      ]);
    });
  });

  describe('sessions', () => {
    it('exit prints the resume command; -c shows the recap before the prompt', async () => {
      // A workspace of its own: -c continues this workspace's latest session.
      const own = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-chat-resume-')));
      fake.enqueue(
        reply.text('The first answer.'),
        reply.toolCall('bash', { command: 'seq 1 30' }),
        reply.text('Counted to thirty.'),
      );
      const first = await startChat([], own);
      await first.submit('say something first');
      await shown(first, 'The first answer.');
      await lastLineIs(first, 'oy>');
      await first.submit('count to thirty');
      await shown(first, /Allow\? \[y\]es/u);
      await first.submit('y');
      await shown(first, 'Counted to thirty.');
      await lastLineIs(first, 'oy>');
      await first.press('C-d');
      const ended = await shown(first, /resume it with: oy chat --resume \S+/u);
      const id = /session (\S+) saved; resume it with: oy chat --resume (\S+)$/mu.exec(ended);
      expect(id?.[1]).toBeDefined();
      expect(id?.[2]).toBe(id?.[1]);
      expect(await first.waitForExit(WAIT_MS)).toBe(0);
      fake.assertDone();

      const second = await startChat(['-c'], own);
      const screen = await second.capture();
      const recap = screen.slice(screen.indexOf('── recap'));
      expect(recap).toContain(`── recap of session ${id![1]!}: all 2 exchanges`);
      expect(recap).toContain('oy> say something first\nThe first answer.');
      expect(recap).toMatch(/oy> count to thirty\n• bash seq 1 30 ok\n/u);
      expect(recap).toContain('… 22 more lines (/output shows them all)');
      expect(recap).not.toMatch(/ \d+ ms$/mu);
      const normalised = recap
        .replaceAll(id![1]!, '<id>')
        .replace(/context \d+ tokens · \$\d+\.\d{4}/u, 'context N tokens · $N');
      expect(normalised).toMatchSnapshot();
      // /output shows the recapped command's whole output.
      await second.submit('/output');
      await shown(second, /^\$ seq 1 30$/mu);
      const whole = await shown(second, /^30$/mu);
      expect(whole).toMatch(/^15$/mu);
      await second.press('C-d');
      expect(await second.waitForExit(WAIT_MS)).toBe(0);
      rmSync(own, { recursive: true, force: true });
    });
  });
});

/** Whether a process with exactly this command line runs (read from /proc, so a sandboxed one counts too). */
function isRunning(argv: readonly string[]): boolean {
  const wanted = `${argv.join('\0')}\0`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === wanted) return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}
