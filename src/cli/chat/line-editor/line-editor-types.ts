/** Keys with a meaning outside the input: Shift+Tab (the next safety mode), Ctrl-T (show or hide thinking). */
export type EditorKey = 'cycle-mode' | 'toggle-thinking';

export type ReadResult =
  | { kind: 'submit'; text: string }
  | { kind: 'interrupt' }
  | { kind: 'eof' }
  /** An EditorKey at the prompt; the input typed so far comes back at the next read. */
  | { kind: 'key'; key: EditorKey };

export interface LineEditorOptions {
  /** process.stdin (may not be a TTY). */
  input: NodeJS.ReadStream;
  /** Where the prompt and echo go: process.stderr (stdout carries only answers). */
  output: NodeJS.WriteStream;
  /** null: no persistence. */
  historyFile: string | null;
  /** Default 1000. */
  historySize?: number;
  /** Prompt for the second and later lines of a multi-line input; default `... `. */
  continuationPrompt?: string;
  /** What Tab completes at the cursor (terminals only); without it Tab inserts a tab. */
  complete?: Completer;
  /** Where SIGINT comes from when the input is not a terminal; default `process`. */
  signalSource?: NodeJS.EventEmitter;
  /** How a hint below the input is drawn (the caller's dim colour); plain by default. */
  styleHint?: (text: string) => string;
  /** How long a lone ESC waits for the rest of an escape sequence before it is Esc (tests shorten it). */
  escapeTimeoutMs?: number;
}

export interface LineEditor {
  /** Reads one message (multi-line aware). 'interrupt': Ctrl-C on an empty line; 'eof': Ctrl-D on an empty line or input ended. */
  read(prompt: string): Promise<ReadResult>;
  /** One plain line for approvals/questions; null on Ctrl-C, Ctrl-D or end of input. */
  ask(question: string): Promise<string | null>;
  /** While no read/ask is pending (a turn runs), Ctrl-C or Esc calls handler. Returns the unsubscribe. */
  onInterrupt(handler: () => void): () => void;
  /** While no read/ask is pending, an EditorKey (Ctrl-T) calls handler. Returns the unsubscribe. */
  onKey(handler: (key: EditorKey) => void): () => void;
  /** Restores the terminal (raw mode off, bracketed paste off). */
  close(): void;
}

/** Tab at the cursor: text to insert, or names to list; undefined when there is nothing to complete (Tab is a tab). */
export type Completer = (
  text: string,
  cursor: number,
) => Promise<{ insert: string; candidates: string[] } | undefined>;
