import { afterEach, describe, expect, it } from 'vitest';
import {
  createLineEditor,
  type Completer,
  type LineEditor,
  type ReadResult,
} from '../../../../src/cli/chat/line-editor/create-line-editor.js';
import { KEY, createFakeTerminal, settle, type FakeTerminal } from './fake-terminal.js';

/**
 * The keys people's hands know from readline, Claude Code and Codex: Esc, Esc Esc, Ctrl-R,
 * Shift+Tab, Ctrl-T and Tab, on the editor's own screen model.
 */
const PROMPT = 'oy> ';
// Short here, so a lone ESC becomes Esc quickly; a timer of this length always fires before a longer one set after it.
const ESCAPE_TIMEOUT_MS = 5;
let editors: LineEditor[] = [];

afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

function open(options: { complete?: Completer; columns?: number } = {}) {
  const terminal = createFakeTerminal(options.columns ?? 80);
  const editor = createLineEditor({
    input: terminal.input,
    output: terminal.output,
    historyFile: null,
    escapeTimeoutMs: ESCAPE_TIMEOUT_MS,
    ...(options.complete ? { complete: options.complete } : {}),
  });
  editors.push(editor);
  return { terminal, editor };
}

/** Sends keys, waiting out the escape timeout after each lone ESC (as a person's Esc arrives). */
async function press(terminal: FakeTerminal, ...keys: string[]): Promise<void> {
  for (const key of keys) {
    await terminal.type(key);
    if (key === KEY.escape || key === KEY.doubleEscape) {
      await new Promise((resolve) => setTimeout(resolve, ESCAPE_TIMEOUT_MS * 6));
      await settle();
    }
  }
}

async function read(editor: LineEditor, terminal: FakeTerminal, ...keys: string[]) {
  let settled: ReadResult | undefined;
  const result = editor.read(PROMPT).then((value) => (settled = value));
  await settle();
  await press(terminal, ...keys);
  return { result, settled: () => settled };
}

async function submitAll(editor: LineEditor, terminal: FakeTerminal, ...texts: string[]) {
  for (const text of texts) {
    const { result } = await read(editor, terminal, text, KEY.enter);
    await result;
  }
}

const lastLine = (terminal: FakeTerminal) => terminal.screen.lines().at(-1);

describe('Esc and Ctrl-T while a turn runs', () => {
  it('Esc interrupts as Ctrl-C does; a key whose sequence starts with ESC does not', async () => {
    const { terminal, editor } = open();
    let interrupts = 0;
    editor.onInterrupt(() => interrupts++);
    await press(terminal, KEY.up, KEY.left, KEY.shiftTab, KEY.altEnter);
    expect(interrupts).toBe(0);
    // An arrow key split over two writes (a slow link) is still an arrow key, not Esc then "[A".
    await terminal.type('\x1b');
    await terminal.type('[A');
    await new Promise((resolve) => setTimeout(resolve, ESCAPE_TIMEOUT_MS * 6));
    expect(interrupts).toBe(0);
    await press(terminal, KEY.escape);
    expect(interrupts).toBe(1);
    await press(terminal, KEY.doubleEscape);
    expect(interrupts).toBe(2);
    await press(terminal, KEY.ctrlC);
    expect(interrupts).toBe(3);
    // Nothing typed during the turn reached the screen.
    expect(terminal.screen.lines()).toEqual([]);
  });

  it('Ctrl-T is passed to onKey while a turn runs, and ends a read with the typed text kept', async () => {
    const { terminal, editor } = open();
    const keys: string[] = [];
    const stop = editor.onKey((key) => keys.push(key));
    await press(terminal, KEY.ctrlT);
    expect(keys).toEqual(['toggle-thinking']);
    stop();
    await press(terminal, KEY.ctrlT);
    expect(keys).toEqual(['toggle-thinking']);

    const first = await read(editor, terminal, 'half typed', KEY.ctrlT);
    await expect(first.result).resolves.toEqual({ kind: 'key', key: 'toggle-thinking' });
    // The prompt is off the screen; the next read draws it again with the text.
    expect(terminal.screen.lines()).toEqual([]);
    const second = await read(editor, terminal, ' and done', KEY.enter);
    await expect(second.result).resolves.toEqual({ kind: 'submit', text: 'half typed and done' });
  });

  it('Shift+Tab ends a read as cycle-mode and keeps the input for the next read', async () => {
    const { terminal, editor } = open();
    const first = await read(editor, terminal, 'draft', KEY.left, KEY.shiftTab);
    await expect(first.result).resolves.toEqual({ kind: 'key', key: 'cycle-mode' });
    const second = await read(editor, terminal);
    expect(lastLine(terminal)).toBe('oy> draft');
    await press(terminal, KEY.enter);
    await expect(second.result).resolves.toEqual({ kind: 'submit', text: 'draft' });
  });

  it('Esc at a question answers nothing, as Ctrl-C does', async () => {
    const { terminal, editor } = open();
    const answer = editor.ask('Allow? ');
    await settle();
    await press(terminal, 'ye', KEY.escape);
    await expect(answer).resolves.toBeNull();
  });
});

describe('Esc Esc on an empty line', () => {
  it('offers the previous prompt (not a slash command), then takes it up for editing', async () => {
    const { terminal, editor } = open();
    await submitAll(editor, terminal, 'explain the parser', '/mode plan');
    const { result, settled } = await read(editor, terminal, KEY.escape);
    expect(terminal.screen.lines().slice(-2)).toEqual([
      'oy>',
      'Esc again: edit your previous prompt',
    ]);
    await press(terminal, KEY.escape);
    expect(terminal.screen.lines().at(-1)).toBe('oy> explain the parser');
    expect(settled()).toBeUndefined();
    await press(terminal, ' again', KEY.enter);
    await expect(result).resolves.toEqual({ kind: 'submit', text: 'explain the parser again' });
  });

  it('takes both Esc presses in one write as the double, and leaves typed text alone', async () => {
    const { terminal, editor } = open();
    await submitAll(editor, terminal, 'first prompt');
    const typed = await read(editor, terminal, 'mine', KEY.escape, KEY.escape);
    expect(lastLine(terminal)).toBe('oy> mine');
    await press(terminal, KEY.ctrlU, KEY.doubleEscape);
    expect(lastLine(terminal)).toBe('oy> first prompt');
    await press(terminal, KEY.enter);
    await expect(typed.result).resolves.toEqual({ kind: 'submit', text: 'first prompt' });
  });

  it('a key after the first Esc takes the hint away; with no history Esc does nothing', async () => {
    const { terminal, editor } = open();
    const empty = await read(editor, terminal, KEY.escape, KEY.escape);
    expect(terminal.screen.lines()).toEqual(['oy>']);
    await press(terminal, 'x', KEY.enter);
    await empty.result;
    const { result } = await read(editor, terminal, KEY.escape, 'y');
    expect(terminal.screen.lines().at(-1)).toBe('oy> y');
    expect(terminal.screen.lines().join('\n')).not.toContain('Esc again');
    await press(terminal, KEY.enter);
    await expect(result).resolves.toEqual({ kind: 'submit', text: 'y' });
  });
});

describe('Ctrl-R history search', () => {
  async function withHistory() {
    const opened = open();
    await submitAll(
      opened.editor,
      opened.terminal,
      'alpha question',
      'beta Question',
      'alpha second',
      'gamma',
    );
    return opened;
  }

  it('finds the newest match as the query grows, Ctrl-R steps older, Enter sends', async () => {
    const { terminal, editor } = await withHistory();
    const { result, settled } = await read(editor, terminal, 'draft', KEY.ctrlR, 'alp');
    expect(lastLine(terminal)).toBe("(reverse-i-search)`alp': alpha second");
    await press(terminal, KEY.ctrlR);
    expect(lastLine(terminal)).toBe("(reverse-i-search)`alp': alpha question");
    // No older match: the search says it failed and keeps the last one.
    await press(terminal, KEY.ctrlR);
    expect(lastLine(terminal)).toBe("(failed reverse-i-search)`alp': alpha question");
    expect(settled()).toBeUndefined();
    await press(terminal, KEY.enter);
    await expect(result).resolves.toEqual({ kind: 'submit', text: 'alpha question' });
    // What stays on screen is what was sent, after the chat's own prompt.
    expect(terminal.screen.lines().at(-1)).toBe('oy> alpha question');
  });

  it('matches any case for a lower-case query and exactly for one with a capital', async () => {
    const { terminal, editor } = await withHistory();
    const { result } = await read(editor, terminal, KEY.ctrlR, 'question');
    expect(lastLine(terminal)).toBe("(reverse-i-search)`question': beta Question");
    await press(terminal, KEY.ctrlG, KEY.ctrlR, 'Q');
    expect(lastLine(terminal)).toBe("(reverse-i-search)`Q': beta Question");
    await press(terminal, KEY.backspace, 'q');
    expect(lastLine(terminal)).toBe("(reverse-i-search)`q': beta Question");
    await press(terminal, KEY.ctrlG, KEY.ctrlU, 'done', KEY.enter);
    await result;
  });

  it('Esc and Ctrl-G leave the search with the input as it was', async () => {
    const { terminal, editor } = await withHistory();
    const { result, settled } = await read(editor, terminal, 'mine', KEY.ctrlR, 'gam');
    expect(lastLine(terminal)).toBe("(reverse-i-search)`gam': gamma");
    await press(terminal, KEY.escape);
    expect(lastLine(terminal)).toBe('oy> mine');
    await press(terminal, KEY.ctrlR, 'bet', KEY.ctrlG);
    expect(lastLine(terminal)).toBe('oy> mine');
    expect(settled()).toBeUndefined();
    await press(terminal, KEY.enter);
    await expect(result).resolves.toEqual({ kind: 'submit', text: 'mine' });
  });

  it('another key takes the match into the input and acts on it; Enter with no match sends nothing', async () => {
    const { terminal, editor } = await withHistory();
    const first = await read(editor, terminal, KEY.ctrlR, 'bet', KEY.ctrlE, '!');
    expect(lastLine(terminal)).toBe('oy> beta Question!');
    await press(terminal, KEY.enter);
    await expect(first.result).resolves.toEqual({ kind: 'submit', text: 'beta Question!' });

    const second = await read(editor, terminal, KEY.ctrlR, 'zzz', KEY.enter);
    expect(second.settled()).toBeUndefined();
    expect(lastLine(terminal)).toBe('oy>');
    await press(terminal, 'ok', KEY.enter);
    await expect(second.result).resolves.toEqual({ kind: 'submit', text: 'ok' });
  });

  it('shows control characters of a pasted query inertly', async () => {
    const { terminal, editor } = await withHistory();
    const { result } = await read(editor, terminal, KEY.ctrlR);
    await press(terminal, `${KEY.pasteStart}a\x1b[31mb${KEY.pasteEnd}`);
    expect(lastLine(terminal)).toBe("(failed reverse-i-search)`a^[[31mb':");
    await press(terminal, KEY.ctrlG, KEY.ctrlU, 'done', KEY.enter);
    await result;
  });
});

describe('Tab', () => {
  it('inserts the common beginning and lists the candidates at once', async () => {
    const complete: Completer = async (text) =>
      text === '/mo'
        ? { insert: 'de', candidates: ['/mode', '/model'] }
        : { insert: '', candidates: [] };
    const { terminal, editor } = open({ complete });
    const { result } = await read(editor, terminal, '/mo', KEY.tab);
    await settle();
    expect(terminal.screen.lines()).toEqual(['oy> /mode', '/mode  /model', 'oy> /mode']);
    await press(terminal, KEY.enter);
    await expect(result).resolves.toEqual({ kind: 'submit', text: '/mode' });
  });
});
