import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real terminal for end-to-end tests: a private tmux server (its own socket in a temporary
 * folder, no config file) running one command in one pane. Keys go in with `send-keys`, the screen
 * comes back with `capture-pane`. Every call is asynchronous, so an in-process fake provider keeps
 * answering while a test waits for the screen.
 */

/** Whether tmux can be run here; the terminal tests say so when they skip. */
export const hasTmux: boolean = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

const SESSION = 'oy';
const POLL_MS = 40;
const DEFAULT_WAIT_MS = 10_000;

export interface TmuxOptions {
  /** The program and its arguments, run directly (no shell). */
  command: string[];
  cwd: string;
  /** The whole environment of the command; nothing else leaks in from tmux or the test process. */
  env: Record<string, string | undefined>;
  columns?: number;
  rows?: number;
  /** Let the program set tmux's clipboard with OSC 52 (`set-clipboard on`), so a test can see if it did. */
  acceptsClipboard?: boolean;
}

export interface CaptureOptions {
  /** Keep the escape sequences of colours and attributes (`capture-pane -e`). */
  escapes?: boolean;
  /** Only the rows on the screen now, no scrollback: what a person sees without scrolling. */
  isScreenOnly?: boolean;
}

export interface PaneState {
  isDead: boolean;
  /** The command's exit status once it has ended normally. */
  exitStatus: number | undefined;
  /** The signal that ended it, when one did. */
  exitSignal: number | undefined;
}

export interface TmuxTerminal {
  /** Types text exactly as given (`send-keys -l`): no key names, no Enter. */
  type(text: string): Promise<void>;
  /** Presses named keys: `Enter`, `C-c`, `C-d`, `M-Enter`, `Up`, `BSpace`… */
  press(...keys: string[]): Promise<void>;
  /** Types text, then presses Enter. */
  submit(text: string): Promise<void>;
  /** Pastes as a terminal does: ESC[200~ … ESC[201~ around the text when the program asked for bracketed paste; newlines sent as CR. */
  paste(text: string): Promise<void>;
  /** The whole pane, scrollback included (unless `isScreenOnly`), wrapped lines joined. */
  capture(options?: CaptureOptions): Promise<string>;
  /** Polls the screen until `match` holds; throws with the screen when it never does. Timeouts are for waiting, not for speed. */
  waitFor(match: RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Waits until the screen shows `count` prompts in all, the last one waiting for input on the bottom line. */
  waitForPrompt(count: number, prompt?: string, timeoutMs?: number): Promise<string>;
  /** Whether the command has ended (the pane stays, dead, so its exit status can be read). */
  paneState(): Promise<PaneState>;
  /** Waits for the command to end and returns its exit status (`signal <n>` when a signal ended it). */
  waitForExit(timeoutMs?: number): Promise<number | string>;
  /** From now on, appends every byte the program writes to the terminal to `file` (`pipe-pane -o`). */
  recordOutput(file: string): Promise<void>;
  /** The paste buffers' contents: what OSC 52 put there when `acceptsClipboard` is on. */
  listClipboard(): Promise<string[]>;
  /** Resizes the window (the program gets SIGWINCH), as a user dragging the terminal's edge. */
  resize(columns: number, rows: number): Promise<void>;
  /** Stops the server and everything in it; safe to call twice. */
  kill(): Promise<void>;
}

/** Starts a private tmux server running `command` in a `columns` x `rows` pane. */
export async function startTmux(options: TmuxOptions): Promise<TmuxTerminal> {
  const folder = mkdtempSync(path.join(tmpdir(), 'oy-tmux-'));
  const socket = path.join(folder, 'socket');
  const serverEnv = { ...process.env };
  // A test run inside tmux must not talk to the user's own server.
  delete serverEnv.TMUX;
  delete serverEnv.TMUX_PANE;
  const commandEnv = Object.entries(options.env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${value}`);

  const tmux = (args: string[], input?: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'tmux',
        ['-S', socket, '-f', '/dev/null', ...args],
        { env: serverEnv, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`tmux ${args[0]} failed: ${stderr || error.message}`));
          else resolve(stdout);
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });

  // `env -i` gives the command exactly the test's environment (tmux would add its own TERM and TMUX).
  // remain-on-exit is set in the same tmux call, before the server can notice the command end.
  await tmux([
    'new-session',
    '-d',
    '-s',
    SESSION,
    '-x',
    String(options.columns ?? 100),
    '-y',
    String(options.rows ?? 30),
    '-c',
    options.cwd,
    '--',
    'env',
    '-i',
    ...commandEnv,
    ...options.command,
    ';',
    'set-option',
    '-w',
    '-t',
    SESSION,
    'remain-on-exit',
    'on',
    ';',
    'set-option',
    '-g',
    'history-limit',
    '5000',
    ...(options.acceptsClipboard ? [';', 'set-option', '-g', 'set-clipboard', 'on'] : []),
  ]);

  let isKilled = false;
  const target = ['-t', SESSION];
  const serverPid = Number((await tmux(['display-message', '-p', '-t', SESSION, '#{pid}'])).trim());

  const capture = async (captureOptions: CaptureOptions = {}) => {
    const screen = await tmux([
      'capture-pane',
      '-p',
      '-J',
      ...(captureOptions.isScreenOnly ? [] : ['-S', '-', '-E', '-']),
      ...(captureOptions.escapes ? ['-e'] : []),
      ...target,
    ]);
    return screen.replace(/\s+$/u, '');
  };

  const paneState = async (): Promise<PaneState> => {
    const line = await tmux([
      'list-panes',
      ...target,
      '-F',
      '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}',
    ]);
    const [dead, status, signal] = line.trim().split(':');
    const toNumber = (field: string | undefined) =>
      field === undefined || field === '' ? undefined : Number(field);
    return { isDead: dead === '1', exitStatus: toNumber(status), exitSignal: toNumber(signal) };
  };

  const poll = async <T>(
    check: () => Promise<T | undefined>,
    timeoutMs: number,
    describe: () => Promise<string>,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await check();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(await describe());
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  const waitFor: TmuxTerminal['waitFor'] = (match, timeoutMs = DEFAULT_WAIT_MS) => {
    const holds = typeof match === 'function' ? match : (screen: string) => match.test(screen);
    return poll(
      async () => {
        const screen = await capture();
        return holds(screen) ? screen : undefined;
      },
      timeoutMs,
      async () =>
        `the terminal never showed ${String(match)} within ${timeoutMs} ms; it shows:\n${await capture()}`,
    );
  };

  const terminal: TmuxTerminal = {
    type: async (text) => {
      await tmux(['send-keys', ...target, '-l', '--', text]);
    },
    press: async (...keys) => {
      await tmux(['send-keys', ...target, ...keys]);
    },
    submit: async (text) => {
      await terminal.type(text);
      await terminal.press('Enter');
    },
    paste: async (text) => {
      await tmux(['load-buffer', '-b', 'paste', '-'], text);
      await tmux(['paste-buffer', '-p', '-d', '-b', 'paste', ...target]);
    },
    capture,
    waitFor,
    waitForPrompt: (count, prompt = 'oy>', timeoutMs = DEFAULT_WAIT_MS) =>
      waitFor((screen) => {
        const lines = screen.split('\n').map((line) => line.trimEnd());
        return (
          lines.filter((line) => line.startsWith(prompt)).length >= count && lines.at(-1) === prompt
        );
      }, timeoutMs),
    paneState,
    waitForExit: (timeoutMs = DEFAULT_WAIT_MS) =>
      poll(
        async () => {
          const state = await paneState();
          if (state.exitSignal !== undefined) return `signal ${state.exitSignal}`;
          if (state.exitStatus !== undefined) return state.exitStatus;
          // tmux built with libutempter misses a SIGCHLD that arrives while utempter's own handler is
          // in, as it is when the pane's terminal closes (tmux/tmux#311, #4559): the command stays a
          // zombie and its status unknown. Another SIGCHLD to this test's own server makes it reap;
          // harmless when nothing has ended.
          process.kill(serverPid, 'SIGCHLD');
          return undefined;
        },
        timeoutMs,
        async () => `the command did not end within ${timeoutMs} ms; it shows:\n${await capture()}`,
      ),
    recordOutput: async (file) => {
      await tmux(['pipe-pane', '-o', ...target, `cat >> '${file.replaceAll("'", "'\\''")}'`]);
    },
    listClipboard: async () => {
      const names = (await tmux(['list-buffers', '-F', '#{buffer_name}'])).split('\n');
      const buffers: string[] = [];
      for (const name of names.filter((entry) => entry !== '')) {
        buffers.push(await tmux(['show-buffer', '-b', name]));
      }
      return buffers;
    },
    resize: async (columns, rows) => {
      await tmux(['resize-window', ...target, '-x', String(columns), '-y', String(rows)]);
    },
    kill: async () => {
      if (isKilled) return;
      isKilled = true;
      try {
        await tmux(['kill-server']);
      } catch {
        // Already gone.
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return terminal;
}

/** How many times `pattern` (a global or plain RegExp) matches in `text`. */
export function countMatches(text: string, pattern: RegExp): number {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return [...text.matchAll(new RegExp(pattern.source, flags))].length;
}
