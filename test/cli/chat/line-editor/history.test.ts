import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLineEditor,
  type LineEditor,
} from '../../../../src/cli/chat/line-editor/create-line-editor.js';
import { openHistoryStore } from '../../../../src/cli/chat/line-editor/history-store.js';
import { KEY, createFakeTerminal, settle } from './fake-terminal.js';

let editors: LineEditor[] = [];
afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

function temporaryDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'oy-history-'));
}

function openEditor(historyFile: string, historySize?: number) {
  const terminal = createFakeTerminal();
  const editor = createLineEditor({
    input: terminal.input,
    output: terminal.output,
    historyFile,
    ...(historySize === undefined ? {} : { historySize }),
  });
  editors.push(editor);
  const submit = async (...keys: string[]) => {
    const result = editor.read('oy> ');
    await settle();
    for (const key of keys) await terminal.type(key);
    await terminal.type(KEY.enter);
    return result;
  };
  return { terminal, editor, submit };
}

describe('line editor history file', () => {
  it('persists entries, multi-line ones whole, across editors with private permissions', async () => {
    const file = path.join(temporaryDir(), 'state', 'oy', 'history');
    const first = openEditor(file);
    await first.submit('alpha');
    await first.submit('multi', KEY.altEnter, 'line');
    await first.submit('multi', KEY.altEnter, 'line'); // a repeat is not stored twice
    first.editor.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(file, 'utf8')).toBe('"alpha"\n"multi\\nline"\n');

    const second = openEditor(file);
    await expect(second.submit(KEY.up)).resolves.toEqual({ kind: 'submit', text: 'multi\nline' });
    await expect(second.submit(KEY.up, KEY.up, KEY.up, KEY.up)).resolves.toEqual({
      kind: 'submit',
      text: 'alpha',
    });
  });

  it('tightens the mode of an existing history file', async () => {
    const file = path.join(temporaryDir(), 'history');
    fs.writeFileSync(file, '"old"\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const { submit } = openEditor(file);
    await expect(submit(KEY.up)).resolves.toEqual({ kind: 'submit', text: 'old' });
    await submit('new');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps at most historySize entries', async () => {
    const file = path.join(temporaryDir(), 'history');
    const first = openEditor(file, 2);
    for (const text of ['one', 'two', 'three', 'four', 'five']) await first.submit(text);
    first.editor.close();
    const store = openHistoryStore(file, 2);
    expect(store.entries).toEqual(['four', 'five']);
    // Appends until twice the limit, then rewrites the file down to the limit.
    expect(fs.readFileSync(file, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(4);
    const second = openEditor(file, 2);
    await expect(second.submit(KEY.up, KEY.up, KEY.up)).resolves.toEqual({
      kind: 'submit',
      text: 'four',
    });
  });

  it('tolerates a corrupt file and repairs it on the next submit', async () => {
    const file = path.join(temporaryDir(), 'history');
    fs.writeFileSync(file, 'not json\n"ok"\n{"a":1}\n42\n\n"cut sh', { mode: 0o600 });
    const { submit } = openEditor(file);
    await expect(submit(KEY.up, KEY.up)).resolves.toEqual({ kind: 'submit', text: 'ok' });
    await submit('new');
    expect(fs.readFileSync(file, 'utf8')).toBe('"ok"\n"new"\n');
  });

  it('tolerates a history file that cannot be read or written', async () => {
    const dir = temporaryDir();
    const file = path.join(dir, 'history');
    fs.mkdirSync(file); // a directory where the file should be
    const { submit } = openEditor(file);
    await expect(submit('still works')).resolves.toEqual({ kind: 'submit', text: 'still works' });
    await expect(submit(KEY.up)).resolves.toEqual({ kind: 'submit', text: 'still works' });
  });

  it('keeps history in memory only when historyFile is null', () => {
    const store = openHistoryStore(null, 10);
    store.add('a');
    store.add('  ');
    store.add('a');
    store.add('b');
    expect(store.entries).toEqual(['a', 'b']);
  });
});
