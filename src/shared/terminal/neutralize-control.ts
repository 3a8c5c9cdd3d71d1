/**
 * How line breaks in the text are treated:
 * - `normalize` (multi-line prose, diffs, messages): newline kept, CRLF read as a newline, a lone CR shown as `^M`;
 * - `keep` (a command shown for approval): newline kept, every CR shown, since the program gets it;
 * - `show` (one-line fields such as file names): newline and CR both shown (`^J`, `^M`).
 */
export type LineBreaks = 'normalize' | 'keep' | 'show';

export interface NeutralizeOptions {
  lineBreaks?: LineBreaks;
}

// C0 except tab, DEL, C1, and the bidirectional marks, embeddings, overrides and isolates.
const CONTROL_CLASS =
  '\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
// CRLF is matched as a pair so it can be read as one line break.
const CONTROL = new RegExp(`\\r\\n|[${CONTROL_CLASS}]`, 'gu');
const ONE_CONTROL = new RegExp(`^[${CONTROL_CLASS}]$`, 'u');

/**
 * The one way to print untrusted text (model text, tool arguments, previews, file names, provider
 * errors) on a terminal: every control character becomes a visible, inert form (`^[` for ESC, `^?`
 * for DEL, `<U+202E>` for C1 and bidirectional controls), so no escape sequence, carriage return or
 * reordering reaches the terminal. Colour the result afterwards, never before. Idempotent.
 */
export function neutralizeControl(text: string, options: NeutralizeOptions = {}): string {
  const lineBreaks = options.lineBreaks ?? 'normalize';
  return text.replace(CONTROL, (match) => {
    if (match === '\r\n') {
      if (lineBreaks === 'normalize') return '\n';
      return lineBreaks === 'show' ? '^M^J' : '^M\n';
    }
    if (match === '\n' && lineBreaks !== 'show') return match;
    return showControlCharacter(match) ?? match;
  });
}

/** The visible form of one control character (`^[`, `^?`, `<U+009B>`); undefined for any other character. */
export function showControlCharacter(char: string): string | undefined {
  if (!ONE_CONTROL.test(char)) return undefined;
  const code = char.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * For text that arrives in pieces (a streamed answer): a CR at the end of a piece is held until the
 * next one shows whether it starts a CRLF. Call `end()` once the stream is over.
 */
export function createControlNeutralizer(options: NeutralizeOptions = {}) {
  let heldReturn = false;
  return {
    push(piece: string): string {
      let text = heldReturn ? `\r${piece}` : piece;
      heldReturn = text.endsWith('\r');
      if (heldReturn) text = text.slice(0, -1);
      return neutralizeControl(text, options);
    },
    end(): string {
      const rest = heldReturn ? neutralizeControl('\r', options) : '';
      heldReturn = false;
      return rest;
    },
  };
}
