import { OyError } from '../../shared/errors.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { ChatSession } from './chat-session.js';
import type { LineEditor } from './line-editor/create-line-editor.js';
import { runSlashCommand, statusLine } from './run-slash-command.js';
import { parseSlashCommand } from './slash-commands.js';

export const CHAT_PROMPT = 'oy> ';

/**
 * The read-eval loop of `oy chat`: a message runs a turn, a slash command runs the command; the
 * status line follows each turn. Ctrl-D, /quit, or Ctrl-C twice on an empty prompt end it.
 * A failure (the provider down, a bad /load) is reported and the chat goes on.
 */
export async function runChat(chat: ChatSession, editor: LineEditor): Promise<void> {
  const { stderr, colors: c } = chat.output;
  stderr.write(
    `oy chat · ${neutralizeControl(chat.modelId, { lineBreaks: 'show' })} · mode ${chat.mode} · /help for commands, Ctrl-D to exit\n`,
  );
  let isExitArmed = false;
  for (;;) {
    const input = await editor.read(CHAT_PROMPT);
    if (input.kind === 'eof') return;
    if (input.kind === 'interrupt') {
      if (isExitArmed) return;
      isExitArmed = true;
      stderr.write('(press Ctrl-C again or Ctrl-D to exit)\n');
      continue;
    }
    isExitArmed = false;
    if (input.text.trim() === '') continue;
    try {
      const command = parseSlashCommand(input.text);
      if (command === undefined) {
        await chat.runTurn(input.text);
        stderr.write(c.dim(statusLine(chat)) + '\n');
      } else if ((await runSlashCommand(chat, command)) === 'quit') return;
    } catch (error) {
      reportError(error, stderr);
    }
  }
}

function reportError(error: unknown, stderr: NodeJS.WritableStream): void {
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`error: ${neutralizeControl(message)}\n`);
  if (error instanceof OyError && error.hint)
    stderr.write(`hint: ${neutralizeControl(error.hint)}\n`);
}
