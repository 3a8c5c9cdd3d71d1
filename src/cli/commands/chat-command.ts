import path from 'node:path';
import { loadInstructions } from '../../agent/prompt/load-instructions.js';
import { loadSession, type LoadedSession } from '../../agent/session/session-store.js';
import { loadConfig } from '../../config/load-config.js';
import { createModelClient } from '../../providers/create-model-client.js';
import { parseModelId } from '../../providers/model-id/parse-model-id.js';
import type { ModelRef } from '../../providers/types.js';
import { createRedactor } from '../../safety/redact/index.js';
import { UsageError } from '../../shared/errors.js';
import { OY_VERSION } from '../../shared/version.js';
import { ChatSession } from '../chat/chat-session.js';
import { createLineEditor } from '../chat/line-editor/create-line-editor.js';
import { runChat } from '../chat/run-chat.js';
import type { GlobalOptions } from '../global-options.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { parseRunFlags } from '../run/parse-run-flags.js';
import { userInstructionsPath } from '../run/user-instructions-path.js';
import { createColors, shouldColor } from '../terminal.js';

/** Flags of `oy chat`, as cac hands them over. */
export interface ChatFlags extends GlobalOptions {
  mode?: unknown;
  continue?: boolean;
  resume?: unknown;
}

/** The history file of the line editor, in the state directory (product.md "State"). */
const HISTORY_FILE = 'history';

/** `oy chat`: an interactive session; answers on stdout, prompts, previews and progress on stderr. */
export async function runChatCommand(flags: ChatFlags): Promise<void> {
  const env = process.env;
  const settings = parseRunFlags({
    ...flags,
    maxTurns: undefined,
    maxCost: undefined,
    out: undefined,
  });
  const root = resolveWorkspaceRoot(flags.cwd, env);
  const { config, warnings, paths } = await loadConfig({
    workspaceRoot: root,
    env,
    flags: flags.model === undefined ? {} : { model: String(flags.model) },
  });
  const warn = (line: string) => void (flags.quiet || process.stderr.write(`warning: ${line}\n`));
  warnings.forEach(warn);
  const loaded: LoadedSession | undefined =
    settings.resume === null ? undefined : await loadSession(paths.stateDir, root, settings.resume);
  const modelId = config.model ?? loaded?.summary.model ?? null;
  if (modelId === null) {
    throw new UsageError('no model configured, and oy chat needs one', {
      hint: 'save a default with oy model <id>, or pass --model <id> (or set OY_MODEL); oy model lists them',
    });
  }
  const createClient = (ref: ModelRef) =>
    createModelClient(ref, env, {
      retry: {
        onRetry: (info) =>
          warn(
            `${info.error.message}; retrying in ${Math.ceil(info.delayMs / 1000)} s (attempt ${info.attempt + 1} of ${info.maxAttempts})`,
          ),
      },
    });
  const client = await createClient(parseModelId(modelId));
  const redactor = createRedactor();
  const redact = (text: string) => redactor.redact(text).text;
  const instructions = await loadInstructions({
    workspaceRoot: root,
    userInstructionsFile: userInstructionsPath(env),
    redact,
  });
  instructions.warnings.forEach(warn);
  const answerColors = createColors(shouldColor(process.stdout, flags, env));
  const editor = createLineEditor({
    input: process.stdin,
    output: process.stderr,
    historyFile: path.join(paths.stateDir, HISTORY_FILE),
  });
  const chat = new ChatSession({
    workspaceRoot: root,
    stateDir: paths.stateDir,
    env,
    client,
    createClient,
    mode: settings.mode,
    permissions: config.permissions,
    agent: config.agent,
    instructions: instructions.files,
    redact,
    editor,
    output: {
      stdout: process.stdout,
      stderr: process.stderr,
      colors: createColors(shouldColor(process.stderr, flags, env)),
      answerColors,
      // Markdown is for people at a terminal; piped output stays the model's own text.
      isMarkdown: answerColors.isColorSupported && process.stdout.isTTY === true,
    },
    oyVersion: OY_VERSION,
    ...(loaded ? { loaded } : {}),
  });
  // main.ts exits on SIGINT; while a turn runs, the editor turns a SIGINT into stopping the turn instead.
  const previous = process.listeners('SIGINT');
  process.removeAllListeners('SIGINT');
  const onSignal = () => {
    if (!chat.isBusy) for (const listener of previous) (listener as () => void)();
  };
  process.on('SIGINT', onSignal);
  try {
    await chat.start();
    await runChat(chat, editor);
  } finally {
    process.off('SIGINT', onSignal);
    for (const listener of previous) process.on('SIGINT', listener as () => void);
    editor.close();
    await chat.dispose();
  }
}
