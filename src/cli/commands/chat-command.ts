import { openAgentSession, type OpenedAgent } from '../../agent/index.js';
import path from 'node:path';
import { parsePermissionRules } from '../../safety/policy/permission-rule.js';
import { createReadCheck } from '../../safety/policy/read-access.js';
import { askAboutProjectMcp } from '../chat/ask-about-project-mcp.js';
import { CHAT_PROMPTS } from '../chat/chat-prompts.js';
import { ChatSession } from '../chat/chat-session.js';
import { createChatCompleter } from '../chat/complete/create-chat-completer.js';
import { createLineEditor } from '../chat/line-editor/create-line-editor.js';
import { runChat } from '../chat/run-chat.js';
import type { GlobalOptions } from '../global-options.js';
import { resolveWorkspaceRoot } from '../resolve-workspace-root.js';
import { parseRunFlags } from '../run/parse-run-flags.js';
import { loadAgentConfig } from '../run/load-agent-config.js';
import { createColors, shouldColor } from '../terminal.js';

/** Flags of `oy chat`, as the parser hands them over (flags/agent-flags.ts). */
export interface ChatFlags extends GlobalOptions {
  mode?: unknown;
  continue?: boolean;
  resume?: unknown;
}

/** The history file of the line editor, in the state directory (README.md "Configuration"). */
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
  const { config, paths, warn } = await loadAgentConfig(root, flags);
  const answerColors = createColors(shouldColor(process.stdout, flags, env));
  const stderrColors = createColors(shouldColor(process.stderr, flags, env));
  const editor = createLineEditor({
    input: process.stdin,
    output: process.stderr,
    historyFile: path.join(paths.stateDir, HISTORY_FILE),
    continuationPrompt: CHAT_PROMPTS.continuationPrompt,
    styleHint: stderrColors.dim,
    complete: createChatCompleter({
      workspaceRoot: root,
      stateDir: paths.stateDir,
      canRead: createReadCheck(parsePermissionRules(config.permissions), root),
      home: { homeDir: env.HOME, xdgConfigHome: env.XDG_CONFIG_HOME },
      configuredModels: Object.keys(config.models),
    }),
  });
  let opened: OpenedAgent | undefined;
  try {
    // Asked once per content of the workspace .mcp.json; the answer is remembered for that content.
    opened = await openAgentSession({
      command: 'oy chat',
      workspaceRoot: root,
      stateDir: paths.stateDir,
      env,
      config,
      mode: settings.mode,
      resume: settings.resume,
      warn,
      approveProjectFile: askAboutProjectMcp(editor, process.stderr),
    });
    const chat = new ChatSession({
      agent: opened.session,
      createClient: opened.createClient,
      editor,
      output: {
        stdout: process.stdout,
        stderr: process.stderr,
        colors: stderrColors,
        answerColors,
        // Markdown is for people at a terminal (coloured or not); piped output stays the model's own text.
        isMarkdown: process.stdout.isTTY === true,
      },
    });
    // The session belongs to this workspace: a chat started elsewhere with --cwd resumes the same way.
    const resumeArgs = flags.cwd === undefined ? [] : ['--cwd', root];
    await whileInterruptsStopTurns(chat, () => runChat(chat, editor, { resumeArgs }));
  } finally {
    editor.close();
    await opened?.close();
  }
}

/** main.ts exits on SIGINT; while a turn runs, the editor turns a SIGINT into stopping the turn instead. */
async function whileInterruptsStopTurns(
  chat: ChatSession,
  run: () => Promise<void>,
): Promise<void> {
  const previous = process.listeners('SIGINT');
  process.removeAllListeners('SIGINT');
  const onSignal = () => {
    if (!chat.isBusy) for (const listener of previous) (listener as () => void)();
  };
  process.on('SIGINT', onSignal);
  try {
    await run();
  } finally {
    process.off('SIGINT', onSignal);
    for (const listener of previous) process.on('SIGINT', listener as () => void);
  }
}
