import { afterEach, describe, expect, it } from 'vitest';
import {
  createLineEditor,
  type LineEditor,
  type ReadResult,
} from '../../../../src/cli/chat/line-editor/create-line-editor.js';
import { KEY, createFakeTerminal, settle, type FakeTerminal } from './fake-terminal.js';

const PROMPT = 'oy> ';
let editors: LineEditor[] = [];

afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

function open(columns = 80): { terminal: FakeTerminal; editor: LineEditor } {
  const terminal = createFakeTerminal(columns);
  const editor = createLineEditor({
    input: terminal.input,
    output: terminal.output,
    historyFile: null,
  });
  editors.push(editor);
  return { terminal, editor };
}

/** Starts a read, sends keys, and returns the read's promise and whether it has settled. */
async function readWith(editor: LineEditor, terminal: FakeTerminal, keys: string[]) {
  let settled: ReadResult | undefined;
  const result = editor.read(PROMPT).then((value) => (settled = value));
  await settle();
  for (const key of keys) await terminal.type(key);
  return { result, settled: () => settled };
}

describe('line editor on a terminal', () => {
  it('submits typed text and leaves the prompt and the text on screen', async () => {
    const { terminal, editor } = open();
    const { result } = await readWith(editor, terminal, ['hello world', KEY.enter]);
    await expect(result).resolves.toEqual({ kind: 'submit', text: 'hello world' });
    expect(terminal.screen.lines()).toEqual(['oy> hello world']);
    expect([terminal.screen.row, terminal.screen.col]).toEqual([1, 0]);
    expect(terminal.rawModes).toEqual([true]);
    expect(terminal.written[0]).toBe('\x1b[?2004h');
    editor.close();
    expect(terminal.rawModes).toEqual([true, false]);
    expect(terminal.written.at(-1)).toBe('\x1b[?2004l');
  });

  it('edits with arrows, Home/End, Backspace, Delete and the Ctrl keys', async () => {
    const { terminal, editor } = open();
    const keys = ['helo', KEY.left, 'l', KEY.end, ' wrld', KEY.left, KEY.left, KEY.left, 'o'];
    const first = await readWith(editor, terminal, [...keys, KEY.home, 'X', KEY.enter]);
    await expect(first.result).resolves.toEqual({ kind: 'submit', text: 'Xhello world' });

    const second = await readWith(editor, terminal, [
      'abc def',
      KEY.ctrlW, // 'abc '
      'xyz', // 'abc xyz'
      KEY.ctrlA,
      KEY.delete, // 'bc xyz'
      KEY.right,
      KEY.ctrlK, // 'b'
      'q',
      KEY.backspace,
      KEY.backspace, // ''
      'keep cut',
      KEY.left,
      KEY.left,
      KEY.left,
      KEY.ctrlU, // 'cut'
      KEY.ctrlE,
      '!',
      KEY.enter,
    ]);
    await expect(second.result).resolves.toEqual({ kind: 'submit', text: 'cut!' });
    expect(terminal.screen.lines()).toEqual(['oy> Xhello world', 'oy> cut!']);
  });

  it('places the cursor where the edit happens', async () => {
    const { terminal, editor } = open();
    await readWith(editor, terminal, ['abcdef', KEY.left, KEY.left]);
    expect([terminal.screen.row, terminal.screen.col]).toEqual([0, 8]);
    await terminal.type(KEY.home);
    expect(terminal.screen.col).toBe(4);
  });

  it('clears the line on Ctrl-C with text and reports an interrupt on an empty line', async () => {
    const { terminal, editor } = open();
    const first = await readWith(editor, terminal, ['abc', KEY.ctrlC]);
    expect(first.settled()).toBeUndefined();
    await terminal.type('x' + KEY.enter);
    await expect(first.result).resolves.toEqual({ kind: 'submit', text: 'x' });
    const second = await readWith(editor, terminal, [KEY.ctrlC]);
    await expect(second.result).resolves.toEqual({ kind: 'interrupt' });
    expect(terminal.screen.lines()).toEqual(['oy> abc^C', 'oy> x', 'oy> ^C']);
  });

  it('ends on Ctrl-D on an empty line, and deletes forward on Ctrl-D with text', async () => {
    const { terminal, editor } = open();
    const first = await readWith(editor, terminal, ['ab', KEY.left, KEY.ctrlD, KEY.enter]);
    await expect(first.result).resolves.toEqual({ kind: 'submit', text: 'a' });
    const second = await readWith(editor, terminal, [KEY.ctrlD]);
    await expect(second.result).resolves.toEqual({ kind: 'eof' });
  });

  it('re-prompts on Enter on an empty line', async () => {
    const { terminal, editor } = open();
    const read = await readWith(editor, terminal, [KEY.enter, '  ', KEY.enter]);
    expect(read.settled()).toBeUndefined();
    await terminal.type('go' + KEY.enter);
    await expect(read.result).resolves.toEqual({ kind: 'submit', text: 'go' });
    expect(terminal.screen.lines()).toEqual(['oy>', 'oy>', 'oy> go']);
  });

  it('continues on the next line after a trailing backslash', async () => {
    const { terminal, editor } = open();
    const read = await readWith(editor, terminal, ['one \\', KEY.enter, 'two', KEY.enter]);
    await expect(read.result).resolves.toEqual({ kind: 'submit', text: 'one \ntwo' });
    expect(terminal.screen.lines()).toEqual(['oy> one', '... two']);
  });

  it('inserts a newline on Alt+Enter', async () => {
    const { terminal, editor } = open();
    const read = await readWith(editor, terminal, ['a', KEY.altEnter, 'b', KEY.enter]);
    await expect(read.result).resolves.toEqual({ kind: 'submit', text: 'a\nb' });
    expect(terminal.screen.lines()).toEqual(['oy> a', '... b']);
  });

  it('inserts a bracketed paste whole and submits it as one message on Enter', async () => {
    const { terminal, editor } = open();
    const paste = `${KEY.pasteStart}line 1\rline 2\r\nline 3${KEY.pasteEnd}`;
    const read = await readWith(editor, terminal, [paste]);
    expect(read.settled()).toBeUndefined();
    expect(terminal.screen.lines()).toEqual(['oy> line 1', '... line 2', '... line 3']);
    await terminal.type(KEY.enter);
    await expect(read.result).resolves.toEqual({
      kind: 'submit',
      text: 'line 1\nline 2\nline 3',
    });
    expect([terminal.screen.row, terminal.screen.col]).toEqual([3, 0]);
  });

  it('moves between lines of a multi-line input and redraws it in place', async () => {
    const { terminal, editor } = open();
    const read = await readWith(editor, terminal, [
      'first',
      KEY.altEnter,
      'second',
      KEY.up,
      KEY.ctrlE,
      '!',
      KEY.down,
      KEY.backspace,
    ]);
    expect(terminal.screen.lines()).toEqual(['oy> first!', '... secon']);
    await terminal.type(KEY.enter);
    await expect(read.result).resolves.toEqual({ kind: 'submit', text: 'first!\nsecon' });
  });

  it('recalls history with Up and Down, multi-line entries included', async () => {
    const { terminal, editor } = open();
    for (const keys of [['first'], ['multi', KEY.altEnter, 'line'], ['third']]) {
      const read = await readWith(editor, terminal, [...keys, KEY.enter]);
      await read.result;
    }
    const back = await readWith(editor, terminal, ['draft', KEY.up]);
    expect(terminal.screen.lines().at(-1)).toBe('oy> third');
    await terminal.type(KEY.up);
    expect(terminal.screen.lines().slice(-2)).toEqual(['oy> multi', '... line']);
    await terminal.type(KEY.up + KEY.up); // to the entry's first line, then the older entry
    expect(terminal.screen.lines().at(-1)).toBe('oy> first');
    await terminal.type(KEY.down + KEY.down + KEY.down + KEY.down);
    expect(terminal.screen.lines().at(-1)).toBe('oy> draft');
    await terminal.type(KEY.up + KEY.up + KEY.enter);
    await expect(back.result).resolves.toEqual({ kind: 'submit', text: 'multi\nline' });
  });

  it('wraps long input at the terminal width and keeps the redraw in place', async () => {
    const { terminal, editor } = open(20);
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const read = await readWith(editor, terminal, [text, ...Array(10).fill(KEY.left), 'X']);
    expect(terminal.screen.lines()).toEqual(['oy> abcdefghijklmnop', 'qrstuvwxyzX012345678', '9']);
    expect([terminal.screen.row, terminal.screen.col]).toEqual([1, 11]);
    await terminal.type(KEY.backspace + KEY.end + KEY.enter);
    await expect(read.result).resolves.toEqual({ kind: 'submit', text });
    expect(terminal.screen.lines()).toEqual(['oy> abcdefghijklmnop', 'qrstuvwxyz0123456789']);
    expect([terminal.screen.row, terminal.screen.col]).toEqual([2, 0]);
    await readWith(editor, terminal, []);
    expect(terminal.screen.lines()).toEqual([
      'oy> abcdefghijklmnop',
      'qrstuvwxyz0123456789',
      'oy>',
    ]);
  });

  it('handles input that fills the last column exactly', async () => {
    const { terminal, editor } = open(10);
    const read = await readWith(editor, terminal, ['abcdef']);
    expect([terminal.screen.row, terminal.screen.col]).toEqual([1, 0]);
    await terminal.type(KEY.backspace + 'f' + 'g');
    expect(terminal.screen.lines()).toEqual(['oy> abcdef', 'g']);
    await terminal.type(KEY.backspace + KEY.enter);
    await expect(read.result).resolves.toEqual({ kind: 'submit', text: 'abcdef' });
    expect(terminal.screen.lines()).toEqual(['oy> abcdef']);
    expect([terminal.screen.row, terminal.screen.col]).toEqual([1, 0]);
  });

  it('answers ask() with one plain line, and null on Ctrl-C or Ctrl-D', async () => {
    const { terminal, editor } = open();
    const ask = async (keys: string) => {
      const answer = editor.ask('Allow? ');
      await settle();
      await terminal.type(keys);
      return answer;
    };
    await expect(ask('y' + KEY.enter)).resolves.toBe('y');
    await expect(ask(KEY.enter)).resolves.toBe('');
    await expect(ask('yes' + KEY.ctrlC)).resolves.toBeNull();
    await expect(ask(KEY.ctrlD)).resolves.toBeNull();
    await expect(ask(`${KEY.pasteStart}a\nb${KEY.pasteEnd}${KEY.up}\\${KEY.enter}`)).resolves.toBe(
      'a b\\',
    );
    expect(terminal.screen.lines()).toEqual([
      'Allow? y',
      'Allow?',
      'Allow? yes^C',
      'Allow?',
      'Allow? a b\\',
    ]);
  });

  it('calls onInterrupt handlers on Ctrl-C while a turn runs and discards other keys', async () => {
    const { terminal, editor } = open();
    let calls = 0;
    const unsubscribe = editor.onInterrupt(() => calls++);
    await terminal.type('typed during the turn' + KEY.ctrlC);
    expect(calls).toBe(1);
    const read = await readWith(editor, terminal, [KEY.ctrlC]);
    await expect(read.result).resolves.toEqual({ kind: 'interrupt' });
    expect(calls).toBe(1);
    unsubscribe();
    await terminal.type(KEY.ctrlC);
    expect(calls).toBe(1);
    const next = await readWith(editor, terminal, ['z', KEY.enter]);
    await expect(next.result).resolves.toEqual({ kind: 'submit', text: 'z' });
  });

  it('reports eof when the input ends or the editor closes', async () => {
    const { terminal, editor } = open();
    const read = await readWith(editor, terminal, ['partial']);
    editor.close();
    await expect(read.result).resolves.toEqual({ kind: 'eof' });
    await expect(editor.read(PROMPT)).resolves.toEqual({ kind: 'eof' });

    const other = open();
    const pending = other.editor.ask('? ');
    await settle();
    (other.terminal.input as unknown as { end(): void }).end();
    await expect(pending).resolves.toBeNull();
  });
});
