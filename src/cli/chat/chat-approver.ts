import type { Approver, Interaction } from '../../agent/index.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import type { LineEditor } from './line-editor/create-line-editor.js';
import {
  DEFAULT_APPROVAL_SCREEN,
  isViewAnswer,
  parseApprovalAnswer,
  renderApproval,
  type ApprovalScreen,
} from './render-approval.js';

/** What the approver and the ask tool need: the editor to read the answer, stderr to show the question. */
export interface PromptChannel {
  editor: LineEditor;
  stderr: NodeJS.WritableStream;
  colors: Colors;
  /** Before the question: stops the spinner and ends the answer's line. Returns what to call once answered. */
  pause(): () => void;
}

/**
 * Shows the preview on stderr and asks; no answer (Ctrl-C, Ctrl-D, empty) is no. When the preview
 * holds less than the whole call, `v` shows all of it, a screen at a time, then asks again.
 */
export function createChatApprover(channel: PromptChannel): Approver {
  return async (request) => {
    const resume = channel.pause();
    try {
      const view = renderApproval(request, channel.colors, screenOf(channel.stderr));
      channel.stderr.write(view.text);
      for (;;) {
        const answer = await channel.editor.ask(view.question);
        if (view.full === undefined || !isViewAnswer(answer)) return parseApprovalAnswer(answer);
        await showPaged(channel, view.full);
      }
    } finally {
      resume();
    }
  };
}

/** The terminal's size, or a default when stderr is not a terminal. */
function screenOf(stream: NodeJS.WritableStream): ApprovalScreen {
  const tty = stream as Partial<NodeJS.WriteStream>;
  if (tty.isTTY !== true || !tty.columns || !tty.rows) return DEFAULT_APPROVAL_SCREEN;
  return { columns: tty.columns, rows: tty.rows };
}

/**
 * Long text a page at a time on a terminal (Enter for the next, q to stop), all at once otherwise;
 * asked through the editor, so keys go where every other answer goes. A line longer than the screen
 * is split at its width, so a page is never more than a screen.
 */
async function showPaged(channel: PromptChannel, text: string): Promise<void> {
  const isTerminal = (channel.stderr as Partial<NodeJS.WriteStream>).isTTY === true;
  if (!isTerminal) {
    channel.stderr.write(text);
    return;
  }
  const screen = screenOf(channel.stderr);
  const rows = text
    .replace(/\n$/u, '')
    .split('\n')
    .flatMap((line) => splitAt([...line], screen.columns));
  // One row is kept for the "more" question.
  const pageRows = Math.max(1, screen.rows - 1);
  for (let start = 0; start < rows.length; start += pageRows) {
    const end = Math.min(rows.length, start + pageRows);
    channel.stderr.write(`${rows.slice(start, end).join('\n')}\n`);
    if (end === rows.length) return;
    const more = await channel.editor.ask(
      `-- rows 1-${end} of ${rows.length}: Enter shows more, q goes back to the question -- `,
    );
    if (more === null || more.trim().toLowerCase() === 'q') return;
  }
}

/** A line as rows of at most `columns` code points (an empty line is one empty row). */
function splitAt(chars: readonly string[], columns: number): string[] {
  if (chars.length <= columns) return [chars.join('')];
  const rows: string[] = [];
  for (let start = 0; start < chars.length; start += columns)
    rows.push(chars.slice(start, start + columns).join(''));
  return rows;
}

/** Answers the `ask` tool: the model's question and numbered choices on stderr, shown inertly; a choice's number picks it. */
export function createAskUser(channel: PromptChannel): Interaction['ask'] {
  return async (question, choices) => {
    const resume = channel.pause();
    try {
      return await askQuestion(channel, question, choices);
    } finally {
      resume();
    }
  };
}

async function askQuestion(
  channel: PromptChannel,
  question: string,
  choices: readonly string[],
): Promise<string> {
  {
    const c = channel.colors;
    channel.stderr.write(`${c.bold('?')} ${neutralizeControl(question)}\n`);
    choices.forEach((choice, index) =>
      channel.stderr.write(
        `  ${index + 1}. ${neutralizeControl(choice, { lineBreaks: 'show' })}\n`,
      ),
    );
    const answer = await channel.editor.ask(
      choices.length === 0 ? 'answer: ' : `answer (1-${choices.length} or your own words): `,
    );
    if (answer === null || answer.trim() === '') return '(the user gave no answer)';
    const picked = /^\d+$/u.test(answer.trim()) ? choices[Number(answer.trim()) - 1] : undefined;
    return picked ?? answer.trim();
  }
}
