import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { OY_BIN } from '../support/run-oy.js';
import { countMatches, hasTmux, startTmux, type TmuxTerminal } from '../support/tmux.js';

/**
 * `oy chat` in a real terminal: the built CLI runs in a tmux pane against the in-process fake
 * provider; the tests type keys and read the screen as a user would.
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const QUESTION = 'Allow? [y]es / [n]o / [a]lways for this session (default no):';
const STATUS_LINE =
  /anthropic::claude-haiku-4-5 · mode (\S+) · context \d+ tokens · \$(\d+\.\d{4}|\?)/;

let fake: FakeProviderServer;
let workspace: string;
let stateHome: string;
let terminal: TmuxTerminal | undefined;

/** The shared chat's terminal, and where the current test's part of its screen starts. */
let shared:
  | { terminal: TmuxTerminal; fake: FakeProviderServer; firstLine: number; firstCall: number }
  | undefined;

beforeEach(async () => {
  if (shared !== undefined) {
    fake = shared.fake;
    return;
  }
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-chat-tmux-')));
  // Each test its own state directory: its own history file and sessions.
  stateHome = mkdtempSync(path.join(tmpdir(), 'oy-chat-state-'));
});
afterEach(async () => {
  if (shared !== undefined) return;
  await terminal?.kill();
  terminal = undefined;
  await fake.close();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(stateHome, { recursive: true, force: true });
});

/**
 * Starts `oy chat` in a 100x30 pane and waits for its first prompt. With `afterExit`, a shell runs
 * chat, then prints `exit status <n>` and runs `afterExit` in the same terminal.
 */
async function startChat(
  options: { color?: boolean; args?: string[]; afterExit?: string } = {},
): Promise<TmuxTerminal> {
  const chat = [process.execPath, OY_BIN, 'chat', '--model', MODEL, ...(options.args ?? [])];
  terminal = await startTmux({
    command:
      options.afterExit === undefined
        ? chat
        : ['sh', '-c', `"$@"; echo "exit status $?"; ${options.afterExit}`, 'sh', ...chat],
    cwd: workspace,
    env: {
      ...process.env,
      ...fakeProviderEnv(fake),
      XDG_STATE_HOME: stateHome,
      TERM: 'xterm-256color',
      NO_COLOR: options.color ? undefined : '1',
      FORCE_COLOR: undefined,
    },
  });
  await terminal.waitForPrompt(1);
  return terminal;
}

/** The text of the user message that ends a recorded Anthropic request. */
function lastUserText(index: number): string {
  const body = modelCalls()[index]!.body as {
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

function readWorkspaceFile(name: string): string {
  return readFileSync(path.join(workspace, name), 'utf8');
}

/** The model calls of the current test (in the shared chat, those since it began). */
function modelCalls() {
  return fake.modelCalls.slice(shared?.firstCall ?? 0);
}

/**
 * The shared chat, seen as a fresh one: its screen from the current test's first prompt on, its
 * prompts counted from there. Starting `oy chat` in tmux is most of a test's time, so the tests
 * that do not exit or change the terminal share one.
 */
async function sharedChat(): Promise<TmuxTerminal> {
  if (shared === undefined) {
    const started = await startChat();
    shared = { terminal: started, fake, firstLine: 0, firstCall: 0 };
  } else {
    const lines = (await shared.terminal.capture()).split('\n');
    shared.firstLine = lines.length - 1;
    shared.firstCall = fake.modelCalls.length;
  }
  const { terminal: whole, firstLine } = shared;
  terminal = whole;
  const capture = async (options?: Parameters<TmuxTerminal['capture']>[0]) =>
    (await whole.capture(options)).split('\n').slice(firstLine).join('\n');
  const waitFor: TmuxTerminal['waitFor'] = async (match, timeoutMs = 10_000) => {
    const holds = typeof match === 'function' ? match : (screen: string) => match.test(screen);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await capture();
      if (holds(screen)) return screen;
      if (Date.now() > deadline)
        throw new Error(`the terminal never showed ${String(match)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  };
  return {
    ...whole,
    capture,
    waitFor,
    waitForPrompt: (count, prompt = 'oy>', timeoutMs) =>
      waitFor((screen) => {
        const lines = screen.split('\n').map((line) => line.trimEnd());
        return (
          lines.filter((line) => line.startsWith(prompt)).length >= count && lines.at(-1) === prompt
        );
      }, timeoutMs),
  };
}

const TITLE = hasTmux
  ? 'oy chat in a terminal (tmux)'
  : 'oy chat in a terminal (skipped: tmux is not installed; .ci/run installs it)';

describe.skipIf(!hasTmux)(TITLE, () => {
  describe('in one chat shared by its cases', () => {
    afterAll(async () => {
      await shared?.terminal.kill();
      await shared?.fake.close();
      if (shared !== undefined) {
        rmSync(workspace, { recursive: true, force: true });
        rmSync(stateHome, { recursive: true, force: true });
      }
      shared = undefined;
    });

    it('/undo puts back the file an approved edit changed', async () => {
      writeFileSync(path.join(workspace, 'notes.md'), 'draft\n');
      fake.enqueue(
        reply.toolCall('write', { path: 'notes.md', content: 'final\n' }),
        reply.text('Rewritten.'),
      );
      const chat = await sharedChat();
      await chat.submit('rewrite the notes');
      await chat.waitFor(/Allow\? \[y\]es/);
      await chat.submit('yes');
      await chat.waitForPrompt(2);
      expect(readWorkspaceFile('notes.md')).toBe('final\n');

      await chat.submit('/undo');
      const screen = await chat.waitForPrompt(3);
      expect(screen).toMatch(/undone turn 1: restored notes\.md/);
      expect(readWorkspaceFile('notes.md')).toBe('draft\n');

      await chat.submit('/undo');
      expect(await chat.waitForPrompt(4)).toContain('nothing to undo');
      fake.assertDone();
    });

    it('shows the banner, streams the answer, then the status line and a fresh prompt', async () => {
      fake.enqueue({
        kind: 'answer',
        textChunks: ['Streaming ', 'in ', 'several ', 'pieces.'],
        eventDelayMs: 300,
        usage: { inputTokens: 20, outputTokens: 5 },
      });
      const chat = await sharedChat();
      expect(await terminal!.capture()).toMatch(
        /oy chat · anthropic::claude-haiku-4-5 · mode ask · \/help for commands, Ctrl-D to exit/,
      );

      await chat.submit('say something');
      const partial = await chat.waitFor(/Streaming/);
      // The first piece is on the screen while the last is still on its way.
      expect(partial).not.toContain('pieces.');
      const screen = await chat.waitForPrompt(2);
      const lines = screen.split('\n').map((line) => line.trimEnd());
      const answerLine = lines.findIndex((line) => line.includes('Streaming in several pieces.'));
      const statusLine = lines.findIndex((line) => STATUS_LINE.test(line));
      expect(answerLine).toBeGreaterThan(-1);
      expect(statusLine).toBeGreaterThan(answerLine);
      expect(lines[statusLine]).toMatch(/mode ask/);
      expect(lines.at(-1)).toBe('oy>');
      expect(lastUserText(0)).toBe('say something');
      fake.assertDone();
    });

    it('asks before each edit: yes changes the first file, no leaves the second alone', async () => {
      writeFileSync(path.join(workspace, 'first.txt'), 'alpha one\n');
      writeFileSync(path.join(workspace, 'second.txt'), 'beta two\n');
      fake.enqueue(
        reply.toolCall('edit', { path: 'first.txt', old_string: 'one', new_string: 'uno' }),
        reply.toolCall('edit', { path: 'second.txt', old_string: 'two', new_string: 'dos' }),
        reply.text('One edited, one refused.'),
      );
      const chat = await sharedChat();
      await chat.submit('edit both files');

      const firstAsk = await chat.waitFor(
        (screen) => countMatches(screen, /Allow\? \[y\]es/) === 1,
      );
      expect(firstAsk).toContain('edit wants to: edit first.txt');
      expect(firstAsk).toMatch(/^@@ .* @@/m);
      expect(firstAsk).toMatch(/^-alpha one$/m);
      expect(firstAsk).toMatch(/^\+alpha uno$/m);
      expect(firstAsk).toContain(QUESTION);
      await chat.submit('y');

      const secondAsk = await chat.waitFor(
        (screen) => countMatches(screen, /Allow\? \[y\]es/) === 2,
      );
      expect(secondAsk).toContain('edit wants to: edit second.txt');
      expect(secondAsk).toMatch(/^\+beta dos$/m);
      await chat.submit('n');

      const screen = await chat.waitForPrompt(2);
      expect(screen).toContain('One edited, one refused.');
      expect(screen).toMatch(/• edit first\.txt.* ok \d+ ms/);
      expect(screen).toMatch(/• edit second\.txt.* denied/);
      expect(readWorkspaceFile('first.txt')).toBe('alpha uno\n');
      expect(readWorkspaceFile('second.txt')).toBe('beta two\n');
      fake.assertDone();
    });

    it('Ctrl-C at the question is no; always stops asking about that file for the session', async () => {
      writeFileSync(path.join(workspace, 'count.txt'), 'one\n');
      fake.enqueue(
        reply.toolCall('edit', { path: 'count.txt', old_string: 'one', new_string: 'uno' }),
        reply.toolCall('edit', { path: 'count.txt', old_string: 'one', new_string: 'two' }),
        reply.toolCall('edit', { path: 'count.txt', old_string: 'two', new_string: 'three' }),
        reply.text('Counted to three.'),
      );
      const chat = await sharedChat();
      await chat.submit('count');
      await chat.waitFor((screen) => countMatches(screen, /Allow\? \[y\]es/) === 1);
      await chat.press('C-c');
      await chat.waitFor((screen) => countMatches(screen, /Allow\? \[y\]es/) === 2);
      expect(readWorkspaceFile('count.txt')).toBe('one\n');
      await chat.submit('a');
      const screen = await chat.waitForPrompt(2);
      // The third edit ran without a question.
      expect(countMatches(screen, /Allow\? \[y\]es/)).toBe(2);
      expect(countMatches(screen, /• edit count\.txt.* ok \d+ ms/)).toBe(2);
      expect(screen).toMatch(/• edit count\.txt.* denied/);
      expect(screen).toContain('Counted to three.');
      expect(readWorkspaceFile('count.txt')).toBe('three\n');

      await chat.submit('/permissions');
      expect(await chat.waitForPrompt(3)).toContain('Write(count.txt)');
      fake.assertDone();
    });

    it('Ctrl-C stops a slow answer, says interrupted, and the next prompt works', async () => {
      fake.enqueue(
        {
          kind: 'answer',
          textChunks: ['Thinking ', 'very ', 'slowly ', 'about ', 'it.'],
          eventDelayMs: 500,
        },
        reply.text('Second answer arrived.'),
      );
      const chat = await sharedChat();
      await chat.submit('take your time');
      await chat.waitFor(/Thinking/, 15_000);
      await chat.press('C-c');
      const stopped = await chat.waitForPrompt(2);
      expect(stopped).toMatch(/interrupted/);
      expect(stopped).not.toContain('about it.');

      await chat.submit('once more');
      const screen = await chat.waitForPrompt(3);
      expect(screen).toContain('Second answer arrived.');
      expect(modelCalls()).toHaveLength(2);
      expect(lastUserText(1)).toBe('once more');
      fake.assertDone();
    });

    it('Ctrl-C stops a running command too', async () => {
      fake.enqueue(
        reply.toolCall('bash', { command: 'touch started.txt && sleep 30' }),
        reply.text('Back again.'),
      );
      const chat = await sharedChat();
      await chat.submit('run the long job');
      await chat.waitFor(/Allow\? \[y\]es/);
      await chat.submit('y');
      await chat.waitFor(() => existsSync(path.join(workspace, 'started.txt')));
      await chat.press('C-c');
      // Well before the 30 s sleep could end.
      const stopped = await chat.waitForPrompt(2, 'oy>', 15_000);
      expect(stopped).toMatch(/interrupted/);

      await chat.submit('still there?');
      expect(await chat.waitForPrompt(3)).toContain('Back again.');
      fake.assertDone();
    });

    it('sends a pasted block of three lines as one message', async () => {
      fake.enqueue(reply.text('Got all three.'));
      const chat = await sharedChat();
      await chat.paste('first pasted line\nsecond pasted line\nthird pasted line');
      // The paste is in the editor, not sent: nothing reaches the model until Enter.
      await chat.waitFor(/third pasted line/);
      expect(modelCalls()).toHaveLength(0);
      await chat.press('Enter');
      await chat.waitForPrompt(2);
      expect(await chat.capture()).toContain('Got all three.');
      expect(modelCalls()).toHaveLength(1);
      expect(lastUserText(0)).toBe('first pasted line\nsecond pasted line\nthird pasted line');
      fake.assertDone();
    });

    it('joins lines ended with a backslash, and Alt+Enter adds a line', async () => {
      fake.enqueue(reply.text('Two lines seen.'), reply.text('Alt lines seen.'));
      const chat = await sharedChat();
      await chat.submit('line one\\');
      await chat.waitFor((screen) => screen.split('\n').at(-1)?.trimEnd() === '...');
      await chat.submit('line two');
      await chat.waitForPrompt(2);
      expect(lastUserText(0)).toBe('line one\nline two');

      await chat.type('alpha');
      await chat.press('M-Enter');
      await chat.type('beta');
      await chat.waitFor(/^\.\.\. beta$/m);
      await chat.press('Enter');
      await chat.waitForPrompt(3);
      expect(lastUserText(1)).toBe('alpha\nbeta');
      expect(modelCalls()).toHaveLength(2);
      fake.assertDone();
    });

    it('recalls the previous message with Up and keeps it in the history file', async () => {
      fake.enqueue(reply.text('First reply.'), reply.text('Second reply.'));
      const chat = await sharedChat();
      await chat.submit('remember this message');
      await chat.waitForPrompt(2);
      await chat.press('Up');
      await chat.waitFor((screen) => screen.split('\n').at(-1) === 'oy> remember this message');
      await chat.press('Enter');
      await chat.waitForPrompt(3);
      expect(modelCalls()).toHaveLength(2);
      expect(lastUserText(1)).toBe('remember this message');
      const historyFile = path.join(stateHome, 'oy', 'history');
      expect(readFileSync(historyFile, 'utf8')).toContain('remember this message');
      expect(statSync(historyFile).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(historyFile)).mode & 0o777).toBe(0o700);
      fake.assertDone();
    });

    it('answers an unknown command in one line and stays; Enter on an empty line only re-prompts', async () => {
      const chat = await sharedChat();
      await chat.submit('/xyz');
      const screen = await chat.waitForPrompt(2);
      expect(screen).toContain('unknown command /xyz; /help lists the commands');
      expect(screen).not.toContain('Commands:');
      await chat.press('Enter');
      await chat.waitForPrompt(3);
      await chat.submit('/mode');
      expect(await chat.waitForPrompt(4)).toMatch(/mode ask\b.*plan.*edit.*auto/);
      expect(modelCalls()).toHaveLength(0);
    });

    it('/mode plan refuses a write without asking', async () => {
      fake.enqueue(
        reply.toolCall('write', { path: 'plan.txt', content: 'should not exist\n' }),
        reply.text('I may not write in plan mode.'),
      );
      const chat = await sharedChat();
      await chat.submit('/mode plan');
      await chat.waitForPrompt(2);
      await chat.submit('write plan.txt');
      const screen = await chat.waitForPrompt(3);
      expect(screen).toMatch(/• write plan\.txt.* denied/);
      expect(screen).not.toContain(QUESTION);
      expect(screen).toContain('I may not write in plan mode.');
      expect(screen).toMatch(/mode plan · context/);
      expect(existsSync(path.join(workspace, 'plan.txt'))).toBe(false);
      fake.assertDone();
    });
  });

  describe('each in its own chat', () => {
    it('leaves no raw escape sequences on the screen with colours on', async () => {
      writeFileSync(path.join(workspace, 'app.ts'), 'export const answer = 42;\n');
      fake.enqueue(
        reply.toolCall('read', { path: 'app.ts' }),
        reply.text(
          '# Findings\n\nThe file has **one** export:\n\n- `answer` is a constant\n- nothing else\n\n```ts\nexport const answer = 42;\n```\n\nDone.\n',
        ),
      );
      const chat = await startChat({ color: true });
      await chat.submit('what is in app.ts?');
      await chat.waitForPrompt(2);
      const plain = await chat.capture();
      const styled = await chat.capture({ escapes: true });
      // Colours really are on: the styled capture has SGR sequences the plain one does not.
      expect(styled).toContain('\x1b[');
      expect(plain).toContain('Findings');
      expect(plain).toContain('export const answer = 42;');
      expect(plain).toMatch(/•.*answer.*is a constant/);
      expect(plain).toMatch(/• read app\.ts.* ok \d+ ms/);
      expect(plain).toMatch(STATUS_LINE);
      for (const garbage of ['\x1b', '[0m', '[?2004', '^[', '\x07', '\r']) {
        expect(plain).not.toContain(garbage);
      }
      expect(plain).not.toMatch(/\[[\d;?]+[A-Za-z]/);
      fake.assertDone();
    });

    it('exits with code 0 on Ctrl-D at an empty prompt', async () => {
      const chat = await startChat();
      await chat.press('C-d');
      expect(await chat.waitForExit()).toBe(0);
      expect(fake.modelCalls).toHaveLength(0);
    });

    it('gives the terminal back as it found it: raw mode and bracketed paste off', async () => {
      const chat = await startChat({ afterExit: 'stty -a; cat -v' });
      await chat.press('C-d');
      await chat.waitFor(/exit status 0/);
      // Cooked mode again: line editing and echo on.
      const screen = await chat.waitFor(/\bicanon\b/);
      expect(screen).toMatch(/(^|\s)icanon(\s|$)/m);
      expect(screen).toMatch(/(^|\s)echo(\s|$)/m);
      expect(screen).not.toMatch(/-icanon|-echo(\s|$)/m);
      // A paste into `cat -v` would show ^[[200~ had chat left bracketed paste mode on.
      await chat.paste('pasted after exit\n');
      const pasted = await chat.waitFor(
        (text) => countMatches(text, /pasted after exit/) === 2, // the echo, then cat's copy
      );
      expect(pasted).not.toContain('[200~');
    });

    it('Ctrl-C clears typed text; twice on an empty prompt exits with code 0', async () => {
      const chat = await startChat();
      await chat.type('never sent');
      await chat.waitFor(/oy> never sent/);
      await chat.press('C-c');
      await chat.waitForPrompt(2);
      expect(await chat.capture()).toMatch(/oy> never sent\^C/);
      await chat.press('C-c');
      await chat.waitFor(/\(press Ctrl-C again or Ctrl-D to exit\)/);
      await chat.press('C-c');
      expect(await chat.waitForExit()).toBe(0);
      expect(fake.modelCalls).toHaveLength(0);
    });
  });
});
