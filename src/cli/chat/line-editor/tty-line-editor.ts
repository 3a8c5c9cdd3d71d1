import readline from 'node:readline';
import {
  EMPTY_EDIT,
  deleteForward,
  insertText,
  moveLineDown,
  moveLineUp,
  moveToEnd,
  type EditState,
} from './edit-buffer.js';
import { editForKey } from './edit-keys.js';
import type { HistoryStore } from './history-store.js';
import { extendQuery, searchView, startSearch, type HistorySearch } from './history-search.js';
import { stepSearch } from './search-key.js';
import { createInterruptHandlers } from './interrupt-handlers.js';
import { neutralizeControl } from '../../../shared/terminal/neutralize-control.js';
import type { Completer, EditorKey, LineEditor, ReadResult } from './line-editor-types.js';
import { layoutInput, moveToEndSequence, redrawSequence, type Prompts } from './render-input.js';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
const CLEAR_SCREEN = '\x1b[H\x1b[2J';
// What a terminal without a `columns` report is assumed to be.
const DEFAULT_COLUMNS = 80;
/**
 * A lone ESC is Esc only when nothing follows it within this time: a terminal (and tmux) writes a
 * key's whole escape sequence at once, a person never presses another key this fast (vim's ttimeoutlen).
 */
export const ESCAPE_TIMEOUT_MS = 100;
const DOUBLE_ESCAPE = '\x1b\x1b';
const PREVIOUS_PROMPT_HINT = 'Esc again: edit your previous prompt';

type Pending =
  | { kind: 'read'; resolve: (result: ReadResult) => void }
  | { kind: 'ask'; resolve: (answer: string | null) => void };

interface TtyEditorOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  history: HistoryStore;
  continuationPrompt: string;
  complete?: Completer;
  escapeTimeoutMs?: number;
  /** How a hint below the input is drawn (dim, when colours are on). */
  styleHint?: (text: string) => string;
}

/**
 * The editor on a terminal: raw mode for the editor's whole life, keys decoded by
 * `readline.emitKeypressEvents`, the buffer and its redraw our own (readline.Interface holds one
 * line only). While no read is pending (a turn runs) Ctrl-C and Esc interrupt, Ctrl-T is passed on,
 * and every other key is discarded.
 */
export function createTtyLineEditor(options: TtyEditorOptions): LineEditor {
  const { input, output, history } = options;
  const styleHint = options.styleHint ?? ((text: string) => text);
  const interrupts = createInterruptHandlers();
  const keyHandlers = new Set<(key: EditorKey) => void>();
  let pending: Pending | undefined;
  let prompts: Prompts = { first: '', continuation: options.continuationPrompt };
  let edit: EditState = EMPTY_EDIT;
  let search: HistorySearch | undefined;
  let hint: string | undefined;
  // What was typed when a key (Shift+Tab) ended a read: the next read starts from it.
  let kept: EditState | undefined;
  let shownCursorRow = 0;
  let isRenderQueued = false;
  let paste: string | undefined;
  let historyIndex = 0;
  let draft = '';
  let hasEnded = false;
  let isClosed = false;

  const layout = () => {
    const columns = output.columns || DEFAULT_COLUMNS;
    const shownHint = hint === undefined ? undefined : { text: hint, style: styleHint };
    if (search === undefined) return layoutInput(prompts, edit, columns, shownHint);
    const view = searchView(search, history.entries);
    return layoutInput({ ...prompts, first: view.prompt }, view.edit, columns, shownHint);
  };

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
    hint = undefined;
    const shown = layout();
    const lineBreak = shown.endsWithWrap && suffix === '' ? '' : '\r\n';
    output.write(
      redrawSequence(shownCursorRow, shown) + moveToEndSequence(shown) + suffix + lineBreak,
    );
    shownCursorRow = 0;
    isRenderQueued = false;
  };

  /** Takes the prompt and input off the screen, the cursor left where the prompt began. */
  const eraseInput = () => {
    output.write(shownCursorRow > 0 ? `\x1b[${shownCursorRow}A\r\x1b[J` : '\r\x1b[J');
    shownCursorRow = 0;
    isRenderQueued = false;
  };

  const startInput = (first: string, continuation: string, start: EditState = EMPTY_EDIT) => {
    prompts = { first, continuation };
    edit = start;
    search = undefined;
    hint = undefined;
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

  const submit = (text: string) => {
    finishLine('');
    history.add(text);
    settle({ kind: 'submit', text });
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
    } else submit(text);
  };

  const onCtrlC = (suffix = '^C') => {
    const hadText = edit.text !== '';
    finishLine(suffix);
    if (hadText && pending?.kind === 'read') startInput(prompts.first, prompts.continuation);
    else settle({ kind: 'interrupt' });
  };

  const onCtrlD = () => {
    if (edit.text !== '') return update(deleteForward(edit));
    finishLine('');
    settle({ kind: 'eof' });
  };

  /** A key with a meaning outside the input ends the read; what was typed waits for the next one. */
  const endReadWithKey = (key: EditorKey) => {
    kept = edit;
    eraseInput();
    settle({ kind: 'key', key });
  };

  /** The last prompt sent (slash commands are not prompts), for a double Esc. */
  const previousPrompt = () => history.entries.findLast((entry) => !entry.startsWith('/'));

  // Esc on an empty input offers the previous prompt (a hint below); a second Esc takes it up.
  const onEscape = (isDouble: boolean) => {
    if (pending?.kind === 'ask') return onCtrlC('');
    if (edit.text !== '') return;
    const previous = previousPrompt();
    if (previous === undefined) return;
    if (isDouble || hint === PREVIOUS_PROMPT_HINT) {
      hint = undefined;
      historyIndex = history.entries.lastIndexOf(previous);
      return update(moveToEnd({ text: previous, cursor: 0 }));
    }
    hint = PREVIOUS_PROMPT_HINT;
    queueRender();
  };

  const insertPaste = (text: string) => {
    const normalized = text.replace(/\r\n?/g, '\n');
    if (search !== undefined) return onSearchText(normalized.replace(/\n/g, ' '));
    update(insertText(edit, pending?.kind === 'ask' ? normalized.replace(/\n/g, ' ') : normalized));
  };

  const onSearchText = (text: string) => {
    search = extendQuery(search!, history.entries, text);
    queueRender();
  };

  /** Keys while Ctrl-R searches (search-key.ts decides); the search ends before any other key acts. */
  const onSearchKey = (text: string | undefined, key: readline.Key): void => {
    const step = stepSearch(search!, history.entries, text, key);
    if (step.kind === 'search') search = step.search;
    else {
      search = undefined;
      edit = step.kind === 'submit' ? { text: step.text, cursor: step.text.length } : step.edit;
      if (step.kind === 'submit') return submit(step.text);
      if (step.kind === 'leave-then-key') return onKey(text, key);
    }
    queueRender();
  };

  const onKey = (text: string | undefined, key: readline.Key): void => {
    if (search !== undefined) return onSearchKey(text, key);
    if (key.name === 'escape') return onEscape(key.sequence === DOUBLE_ESCAPE);
    if (hint !== undefined) {
      hint = undefined;
      queueRender();
    }
    const isRead = pending?.kind === 'read';
    const edited = editForKey(edit, text, key);
    if (edited !== undefined) return update(edited);
    if (key.ctrl && !key.meta) return onControlKey(key.name, isRead);
    if (key.meta) {
      const isNewLine = key.name === 'return' || key.name === 'enter';
      return isNewLine && isRead ? update(insertText(edit, '\n')) : undefined;
    }
    switch (key.name) {
      case 'return':
      case 'enter':
        return onEnter();
      case 'up':
        return isRead ? moveOrRecall(moveLineUp(edit), -1) : undefined;
      case 'down':
        return isRead ? moveOrRecall(moveLineDown(edit), 1) : undefined;
      case 'tab':
        if (key.shift) return isRead ? endReadWithKey('cycle-mode') : undefined;
        return isRead && options.complete !== undefined
          ? completeAtCursor(options.complete)
          : update(insertText(edit, '\t'));
    }
  };

  const onControlKey = (name: string | undefined, isRead: boolean) => {
    switch (name) {
      case 'c':
        return onCtrlC();
      case 'd':
        return onCtrlD();
      case 'p':
        return isRead ? recallHistory(-1) : undefined;
      case 'n':
        return isRead ? recallHistory(1) : undefined;
      case 'r':
        if (!isRead) return;
        search = startSearch(edit);
        return queueRender();
      case 't':
        return isRead ? endReadWithKey('toggle-thinking') : undefined;
      case 'l':
        output.write(CLEAR_SCREEN);
        shownCursorRow = 0;
        return render();
    }
  };

  // Tab asks the completer (it reads folders, so it is asynchronous); a key pressed meanwhile wins.
  const completeAtCursor = (complete: Completer) => {
    const asked = edit;
    void complete(asked.text, asked.cursor).then(
      (completion) => {
        if (edit !== asked || pending?.kind !== 'read' || search !== undefined) return;
        if (completion === undefined) return update(insertText(edit, '\t'));
        if (completion.insert !== '') update(insertText(edit, completion.insert));
        if (completion.candidates.length === 0) return;
        // Several candidates: the input stays on screen with the names under it, then a fresh prompt.
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

  /** A key while a turn runs: Ctrl-C and Esc stop it, Ctrl-T is passed on, the rest is dropped. */
  const onBusyKey = (key: readline.Key | undefined) => {
    if (key?.name === 'escape' || (key?.ctrl === true && key.name === 'c')) interrupts.fire();
    else if (key?.ctrl === true && key.name === 't')
      for (const handler of [...keyHandlers]) handler('toggle-thinking');
  };

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
    if (pending === undefined) return onBusyKey(key);
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

  readline.emitKeypressEvents(input, {
    escapeCodeTimeout: options.escapeTimeoutMs ?? ESCAPE_TIMEOUT_MS,
  } as unknown as readline.Interface);
  input.setRawMode(true);
  input.on('keypress', onKeypress);
  input.on('end', onEnd);
  output.on('resize', onResize);
  input.resume();
  output.write(BRACKETED_PASTE_ON);

  const begin = <T>(kind: Pending['kind'], prompt: string, resolve: (value: T) => void) => {
    if (pending !== undefined) throw new Error('the line editor is already reading');
    pending = { kind, resolve } as Pending;
    const start = kind === 'read' ? kept : undefined;
    if (kind === 'read') kept = undefined;
    startInput(prompt, kind === 'read' ? options.continuationPrompt : '', start);
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
    onKey(handler) {
      const entry = (key: EditorKey) => handler(key);
      keyHandlers.add(entry);
      return () => keyHandlers.delete(entry);
    },
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
