import readline from 'node:readline';
import {
  EMPTY_EDIT,
  deleteBackward,
  deleteForward,
  deleteWordBackward,
  insertText,
  killToLineEnd,
  killToLineStart,
  moveLeft,
  moveLineDown,
  moveLineEnd,
  moveLineStart,
  moveLineUp,
  moveRight,
  moveToEnd,
  moveWordLeft,
  moveWordRight,
  type EditState,
} from './edit-buffer.js';
import type { HistoryStore } from './history-store.js';
import { createInterruptHandlers } from './interrupt-handlers.js';
import { neutralizeControl } from '../../../shared/terminal/neutralize-control.js';
import type { Completer, LineEditor, ReadResult } from './line-editor-types.js';
import { layoutInput, moveToEndSequence, redrawSequence, type Prompts } from './render-input.js';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
const CLEAR_SCREEN = '\x1b[H\x1b[2J';
// What a terminal without a `columns` report is assumed to be.
const DEFAULT_COLUMNS = 80;

type Pending =
  | { kind: 'read'; resolve: (result: ReadResult) => void }
  | { kind: 'ask'; resolve: (answer: string | null) => void };

interface TtyEditorOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  history: HistoryStore;
  continuationPrompt: string;
  complete?: Completer;
}

/**
 * The editor on a terminal: raw mode for the editor's whole life, keys decoded by
 * `readline.emitKeypressEvents`, the buffer and its redraw our own (readline.Interface holds one
 * line only). Keys typed while no read is pending are discarded, except Ctrl-C.
 */
export function createTtyLineEditor(options: TtyEditorOptions): LineEditor {
  const { input, output, history } = options;
  const interrupts = createInterruptHandlers();
  let pending: Pending | undefined;
  let prompts: Prompts = { first: '', continuation: options.continuationPrompt };
  let edit: EditState = EMPTY_EDIT;
  let shownCursorRow = 0;
  let isRenderQueued = false;
  let paste: string | undefined;
  let historyIndex = 0;
  let draft = '';
  let hasEnded = false;
  let isClosed = false;

  const layout = () => layoutInput(prompts, edit, output.columns || DEFAULT_COLUMNS);

  const render = () => {
    isRenderQueued = false;
    if (pending === undefined) return;
    const shown = layout();
    output.write(redrawSequence(shownCursorRow, shown));
    shownCursorRow = shown.cursorRow;
  };

  // Keys of one chunk (a paste without bracketed paste mode) are drawn once, not once per key.
  const queueRender = () => {
    if (isRenderQueued) return;
    isRenderQueued = true;
    queueMicrotask(() => {
      if (isRenderQueued) render();
    });
  };

  /** Leaves the input on screen, cursor after it, then `suffix` and a line break. */
  const finishLine = (suffix: string) => {
    const shown = layout();
    const lineBreak = shown.endsWithWrap && suffix === '' ? '' : '\r\n';
    output.write(
      redrawSequence(shownCursorRow, shown) + moveToEndSequence(shown) + suffix + lineBreak,
    );
    shownCursorRow = 0;
    isRenderQueued = false;
  };

  const startInput = (first: string, continuation: string) => {
    prompts = { first, continuation };
    edit = EMPTY_EDIT;
    historyIndex = history.entries.length;
    draft = '';
    shownCursorRow = 0;
    render();
  };

  const settle = (result: ReadResult) => {
    const settled = pending;
    pending = undefined;
    if (settled?.kind === 'read') settled.resolve(result);
    else settled?.resolve(result.kind === 'submit' ? result.text : null);
  };

  const update = (next: EditState) => {
    edit = next;
    queueRender();
  };

  const recallHistory = (step: -1 | 1) => {
    const { entries } = history;
    const target = historyIndex + step;
    if (target < 0 || target > entries.length) return;
    if (historyIndex === entries.length) draft = edit.text;
    historyIndex = target;
    update(moveToEnd({ text: entries[target] ?? draft, cursor: 0 }));
  };

  const onEnter = () => {
    const { text } = edit;
    if (pending?.kind === 'ask') {
      finishLine('');
      settle({ kind: 'submit', text });
    } else if (text.endsWith('\\')) {
      update(moveToEnd({ text: `${text.slice(0, -1)}\n`, cursor: 0 }));
    } else if (text.trim() === '') {
      finishLine('');
      startInput(prompts.first, prompts.continuation);
    } else {
      finishLine('');
      history.add(text);
      settle({ kind: 'submit', text });
    }
  };

  const onCtrlC = () => {
    const hadText = edit.text !== '';
    finishLine('^C');
    if (hadText && pending?.kind === 'read') startInput(prompts.first, prompts.continuation);
    else settle({ kind: 'interrupt' });
  };

  const onCtrlD = () => {
    if (edit.text !== '') return update(deleteForward(edit));
    finishLine('');
    settle({ kind: 'eof' });
  };

  const insertPaste = (text: string) => {
    const normalized = text.replace(/\r\n?/g, '\n');
    update(insertText(edit, pending?.kind === 'ask' ? normalized.replace(/\n/g, ' ') : normalized));
  };

  const onControlKey = (name: string | undefined) => {
    const isRead = pending?.kind === 'read';
    switch (name) {
      case 'c':
        return onCtrlC();
      case 'd':
        return onCtrlD();
      case 'a':
        return update(moveLineStart(edit));
      case 'e':
        return update(moveLineEnd(edit));
      case 'u':
        return update(killToLineStart(edit));
      case 'k':
        return update(killToLineEnd(edit));
      case 'w':
        return update(deleteWordBackward(edit));
      case 'b':
        return update(moveLeft(edit));
      case 'f':
        return update(moveRight(edit));
      case 'left':
        return update(moveWordLeft(edit));
      case 'right':
        return update(moveWordRight(edit));
      case 'p':
        return isRead ? recallHistory(-1) : undefined;
      case 'n':
        return isRead ? recallHistory(1) : undefined;
      case 'l':
        output.write(CLEAR_SCREEN);
        shownCursorRow = 0;
        return render();
    }
  };

  const onMetaKey = (name: string | undefined) => {
    switch (name) {
      case 'return':
      case 'enter':
        return pending?.kind === 'read' ? update(insertText(edit, '\n')) : undefined;
      case 'b':
      case 'left':
        return update(moveWordLeft(edit));
      case 'f':
      case 'right':
        return update(moveWordRight(edit));
      case 'backspace':
        return update(deleteWordBackward(edit));
    }
  };

  const onKey = (text: string | undefined, key: readline.Key) => {
    if (key.ctrl && !key.meta) return onControlKey(key.name);
    if (key.meta) return onMetaKey(key.name);
    const isRead = pending?.kind === 'read';
    switch (key.name) {
      case 'return':
      case 'enter':
        return onEnter();
      case 'backspace':
        return update(deleteBackward(edit));
      case 'delete':
        return update(deleteForward(edit));
      case 'left':
        return update(moveLeft(edit));
      case 'right':
        return update(moveRight(edit));
      case 'home':
        return update(moveLineStart(edit));
      case 'end':
        return update(moveLineEnd(edit));
      case 'up':
        return isRead ? moveOrRecall(moveLineUp(edit), -1) : undefined;
      case 'down':
        return isRead ? moveOrRecall(moveLineDown(edit), 1) : undefined;
      case 'tab':
        return isRead && options.complete !== undefined
          ? completeAtCursor(options.complete)
          : update(insertText(edit, '\t'));
    }
    if (text !== undefined && isPrintable(text)) update(insertText(edit, text));
  };

  // Tab asks the completer (it reads folders, so it is asynchronous); a key pressed meanwhile wins.
  const completeAtCursor = (complete: Completer) => {
    const asked = edit;
    void complete(asked.text, asked.cursor).then(
      (completion) => {
        if (edit !== asked || pending?.kind !== 'read') return;
        if (completion === undefined) return update(insertText(edit, '\t'));
        if (completion.insert !== '') return update(insertText(edit, completion.insert));
        if (completion.candidates.length === 0) return;
        finishLine('');
        const names = completion.candidates.map((name) =>
          neutralizeControl(name, { lineBreaks: 'show' }),
        );
        output.write(`${names.join('  ')}\r\n`);
        render();
      },
      () => undefined,
    );
  };

  const moveOrRecall = (moved: EditState | undefined, step: -1 | 1) =>
    moved === undefined ? recallHistory(step) : update(moved);

  const onKeypress = (text: string | undefined, key: readline.Key | undefined) => {
    if (key?.name === 'paste-start') {
      paste = '';
      return;
    }
    if (paste !== undefined) {
      if (key?.name !== 'paste-end') {
        paste += key?.sequence ?? text ?? '';
        return;
      }
      const pasted = paste;
      paste = undefined;
      if (pending !== undefined) insertPaste(pasted);
      return;
    }
    if (pending === undefined) {
      if (key?.ctrl && key.name === 'c') interrupts.fire();
      return;
    }
    onKey(text, key ?? {});
  };

  // SIGWINCH: the terminal has re-flowed the input to the new width; find the cursor's row in that
  // layout, then redraw the prompt and input from their first row.
  const onResize = () => {
    if (pending === undefined) return;
    shownCursorRow = layout().cursorRow;
    render();
  };

  const onEnd = () => {
    hasEnded = true;
    if (pending === undefined) return;
    finishLine('');
    settle({ kind: 'eof' });
  };

  readline.emitKeypressEvents(input);
  input.setRawMode(true);
  input.on('keypress', onKeypress);
  input.on('end', onEnd);
  output.on('resize', onResize);
  input.resume();
  output.write(BRACKETED_PASTE_ON);

  const begin = <T>(kind: Pending['kind'], prompt: string, resolve: (value: T) => void) => {
    if (pending !== undefined) throw new Error('the line editor is already reading');
    pending = { kind, resolve } as Pending;
    startInput(prompt, kind === 'read' ? options.continuationPrompt : '');
  };

  return {
    read(prompt) {
      if (hasEnded || isClosed) return Promise.resolve({ kind: 'eof' });
      return new Promise<ReadResult>((resolve) => begin('read', prompt, resolve));
    },
    ask(question) {
      if (hasEnded || isClosed) return Promise.resolve(null);
      return new Promise<string | null>((resolve) => begin('ask', question, resolve));
    },
    onInterrupt: interrupts.add,
    close() {
      if (isClosed) return;
      isClosed = true;
      if (pending !== undefined) onEnd();
      input.off('keypress', onKeypress);
      input.off('end', onEnd);
      output.off('resize', onResize);
      input.setRawMode(false);
      input.pause();
      output.write(BRACKETED_PASTE_OFF);
    },
  };
}

function isPrintable(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}
