import { OyError } from '../../shared/errors.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { formatCommandLine } from '../format-command-line.js';
import type { ChatSession } from './chat-session.js';
import { CHAT_PROMPTS } from './chat-prompts.js';
import { cycleMode } from './cycle-mode.js';
import type { EditorKey, LineEditor } from './line-editor/create-line-editor.js';
import { attachMentionedFiles } from './attach/attach-mentioned-files.js';
import { describeThinking, printStatusLine, runSlashCommand } from './run-slash-command.js';
import { showRecap } from './show-recap.js';
import { parseSlashCommand } from './slash-commands.js';

export const CHAT_PROMPT = CHAT_PROMPTS.prompt;

export interface RunChatOptions {
  /** Flags the resume command needs besides the id (`--cwd <dir>` when the chat was started with it). */
  resumeArgs?: readonly string[];
}

/**
 * The read-eval loop of `oy chat`: a resumed session's recap first; then a message runs a turn, a
 * slash command runs the command, a key (Shift+Tab, Ctrl-T) does its job; the status line follows
 * each turn. Ctrl-D, /quit, or Ctrl-C twice on an empty prompt end it, with the command that resumes
 * the session. A failure (the provider down, a bad /load) is reported and the chat goes on.
 */
export async function runChat(
  chat: ChatSession,
  editor: LineEditor,
  options: RunChatOptions = {},
): Promise<void> {
  const { stderr } = chat.output;
  stderr.write(
    `oy chat · ${neutralizeControl(chat.agent.modelId, { lineBreaks: 'show' })} · mode ${chat.agent.mode} · /help for commands, Ctrl-D to exit\n`,
  );
  const { loaded } = chat.agent.options;
  if (loaded !== undefined && chat.agent.state.messages.length > 0) {
    await showRecap(chat, loaded, CHAT_PROMPTS);
    printStatusLine(chat);
  }
  await readUntilExit(chat, editor);
  const id = chat.agent.session?.id;
  if (id !== undefined) {
    const command = formatCommandLine([
      'oy',
      'chat',
      '--resume',
      id,
      ...(options.resumeArgs ?? []),
    ]);
    stderr.write(
      chat.output.colors.dim(`session ${neutralizeControl(id)} saved; resume it with: ${command}`) +
        '\n',
    );
  }
}

async function readUntilExit(chat: ChatSession, editor: LineEditor): Promise<void> {
  const { stderr } = chat.output;
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
    try {
      if (input.kind === 'key') {
        await onKey(chat, editor, input.key);
        continue;
      }
      if (input.text.trim() === '') continue;
      const command = parseSlashCommand(input.text);
      if (command === undefined) {
        const prompt = await withAttachments(chat, input.text);
        if (prompt === undefined) continue;
        await chat.runTurn(prompt);
        printStatusLine(chat);
      } else if ((await runSlashCommand(chat, command)) === 'quit') return;
    } catch (error) {
      reportError(error, stderr);
    }
  }
}

/** Shift+Tab: the next safety mode (auto asked first); Ctrl-T: thinking shown or hidden. */
async function onKey(chat: ChatSession, editor: LineEditor, key: EditorKey): Promise<void> {
  const say = (text: string) => void chat.output.stderr.write(`${chat.output.colors.dim(text)}\n`);
  if (key === 'cycle-mode') chat.agent.mode = await cycleMode(chat.agent.mode, editor, say);
  else say(describeThinking(chat.display.showThinking(!chat.display.showsThinking)));
}

/** The prompt with the files it mentions as `@path` attached; undefined when one was refused (nothing is sent). */
async function withAttachments(chat: ChatSession, text: string): Promise<string | undefined> {
  const { stderr, colors: c } = chat.output;
  const result = await attachMentionedFiles(text, {
    workspaceRoot: chat.agent.options.workspaceRoot,
    mode: chat.agent.mode,
    rules: chat.agent.rules,
    grants: chat.agent.state.grants,
    redact: chat.agent.options.redact,
    interaction: chat.interaction(),
    signal: new AbortController().signal,
  });
  const show = (name: string) => neutralizeControl(name, { lineBreaks: 'show' });
  if (!result.ok) {
    for (const problem of result.problems) stderr.write(`error: ${neutralizeControl(problem)}\n`);
    stderr.write('hint: nothing was sent; remove the @ or ask for the file another way\n');
    return undefined;
  }
  for (const name of result.attached) stderr.write(c.dim(`attached ${show(name)}`) + '\n');
  for (const name of result.notFound)
    stderr.write(c.dim(`@${show(name)} is no file in the workspace; sent as text`) + '\n');
  return result.prompt;
}

function reportError(error: unknown, stderr: NodeJS.WritableStream): void {
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`error: ${neutralizeControl(message)}\n`);
  if (error instanceof OyError && error.hint)
    stderr.write(`hint: ${neutralizeControl(error.hint)}\n`);
}
