import { openHistoryStore } from './history-store.js';
import type { LineEditor, LineEditorOptions } from './line-editor-types.js';
import { createPipedLineEditor } from './piped-line-editor.js';
import { createTtyLineEditor } from './tty-line-editor.js';

export type {
  Completer,
  EditorKey,
  LineEditor,
  LineEditorOptions,
  ReadResult,
} from './line-editor-types.js';

const DEFAULT_HISTORY_SIZE = 1000;
const DEFAULT_CONTINUATION_PROMPT = '... ';

/**
 * The line editor for `oy chat`: a full editor with history when both input and output are
 * terminals, plain line reading otherwise (piped input, or an output that is a file).
 */
export function createLineEditor(options: LineEditorOptions): LineEditor {
  const { input, output } = options;
  if (input.isTTY && output.isTTY) {
    return createTtyLineEditor({
      input,
      output,
      history: openHistoryStore(options.historyFile, options.historySize ?? DEFAULT_HISTORY_SIZE),
      continuationPrompt: options.continuationPrompt ?? DEFAULT_CONTINUATION_PROMPT,
      ...(options.complete ? { complete: options.complete } : {}),
      ...(options.styleHint ? { styleHint: options.styleHint } : {}),
      ...(options.escapeTimeoutMs === undefined
        ? {}
        : { escapeTimeoutMs: options.escapeTimeoutMs }),
    });
  }
  return createPipedLineEditor({
    input,
    output,
    signalSource: options.signalSource ?? process,
  });
}
