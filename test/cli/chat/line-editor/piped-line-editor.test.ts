import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLineEditor,
  type LineEditor,
} from '../../../../src/cli/chat/line-editor/create-line-editor.js';
import { settle } from './fake-terminal.js';

let editors: LineEditor[] = [];
afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

function openPiped() {
  const input = new PassThrough();
  const written: string[] = [];
  const output = { isTTY: false, write: (chunk: string) => written.push(chunk) > 0 };
  const signals = new EventEmitter();
  const editor = createLineEditor({
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    historyFile: null,
    signalSource: signals,
  });
  editors.push(editor);
  return { input, written, signals, editor };
}

describe('line editor on piped input', () => {
  it('reads each line as a message, joins backslash continuations, ends with eof', async () => {
    const { input, written, editor } = openPiped();
    input.write('hello\n\n   \nline one \\\nline ');
    input.end('two\r\nlast without newline');
    await expect(editor.read('oy> ')).resolves.toEqual({ kind: 'submit', text: 'hello' });
    await expect(editor.read('oy> ')).resolves.toEqual({
      kind: 'submit',
      text: 'line one \nline two',
    });
    await expect(editor.read('oy> ')).resolves.toEqual({
      kind: 'submit',
      text: 'last without newline',
    });
    await expect(editor.read('oy> ')).resolves.toEqual({ kind: 'eof' });
    expect(written.join('')).toBe('');
  });

  it('waits for lines that have not arrived yet, split across chunks', async () => {
    const { input, editor } = openPiped();
    const read = editor.read('oy> ');
    input.write('par');
    await settle();
    input.write('tial \u00e9');
    input.write(Buffer.from([0xc3]));
    input.write(Buffer.from([0xa9, 0x0a]));
    await expect(read).resolves.toEqual({ kind: 'submit', text: 'partial éé' });
  });

  it('answers ask() from the next line, echoing the question and answer without escapes', async () => {
    const { input, written, editor } = openPiped();
    input.write('y\n');
    await expect(editor.ask('Allow? ')).resolves.toBe('y');
    input.end();
    await expect(editor.ask('Allow? ')).resolves.toBeNull();
    expect(written.join('')).toBe('Allow? y\nAllow? \n');
  });

  it('passes SIGINT to onInterrupt handlers while a turn runs', async () => {
    const { input, signals, editor } = openPiped();
    let calls = 0;
    const unsubscribe = editor.onInterrupt(() => calls++);
    signals.emit('SIGINT');
    expect(calls).toBe(1);
    const read = editor.read('oy> ');
    signals.emit('SIGINT'); // a read is pending: not a turn
    expect(calls).toBe(1);
    input.write('x\n');
    await read;
    unsubscribe();
    expect(signals.listenerCount('SIGINT')).toBe(0);
    signals.emit('SIGINT');
    expect(calls).toBe(1);
  });

  it('reads lines when the input is a terminal but the output is not', async () => {
    const input = new PassThrough();
    Object.assign(input, { isTTY: true, setRawMode: () => expect.unreachable('raw mode') });
    const editor = createLineEditor({
      input: input as unknown as NodeJS.ReadStream,
      output: { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream,
      historyFile: null,
    });
    editors.push(editor);
    input.write('plain\n');
    await expect(editor.read('oy> ')).resolves.toEqual({ kind: 'submit', text: 'plain' });
  });
});
