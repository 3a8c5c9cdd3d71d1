import { listSessions } from '../../agent/index.js';
import { parseModelId } from '../../providers/model-id/parse-model-id.js';
import { SAFETY_MODES } from '../../safety/policy/safety-mode.js';
import { UsageError } from '../../shared/errors.js';
import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import { formatUsageLine } from '../run/format-usage-line.js';
import { formatChatHelp } from './chat-help.js';
import { CHAT_PROMPTS } from './chat-prompts.js';
import { showRecap } from './show-recap.js';
import type { ChatSession } from './chat-session.js';
import {
  formatPermissions,
  formatSessionList,
  formatTodos,
  formatUndo,
} from './format-chat-info.js';
import { formatStatusLine } from './format-status-line.js';
import { formatSessionDiff } from './diff/format-session-diff.js';
import type { KeptCommandOutput } from './render/chat-display.js';
import { suggestSlashCommand, type ParsedSlashCommand } from './slash-commands.js';
import { switchMode } from './switch-mode.js';
import { visibleWidth, wrapText } from './render/wrap-text.js';

/** What the chat does after a command: go on, or leave. */
export type SlashOutcome = 'continue' | 'quit';

/**
 * Runs one slash command; its output goes to stderr. An unknown command is one line naming the
 * nearest command; a bad argument prints the problem and its hint; the chat goes on either way.
 * Turns (/ask) print the status line like any turn.
 * What it prints echoes the user, the model and saved sessions, so `say` shows control characters inertly.
 */
export async function runSlashCommand(
  chat: ChatSession,
  command: ParsedSlashCommand,
): Promise<SlashOutcome> {
  const say = (text: string) => void chat.output.stderr.write(`${neutralizeControl(text)}\n`);
  if (command.kind === 'unknown') {
    const nearest = suggestSlashCommand(command.name);
    const advice = nearest === undefined ? '/help lists the commands' : `did you mean /${nearest}?`;
    say(`unknown command /${command.name}; ${advice}`);
    return 'continue';
  }
  const { argument } = command;
  try {
    switch (command.name) {
      case 'help':
        say(formatChatHelp());
        break;
      case 'quit':
        return 'quit';
      case 'status':
        say(formatStatus(chat));
        break;
      case 'model':
        if (argument === '') say(`model ${chat.agent.modelId}`);
        else {
          chat.agent.client = await chat.options.createClient(parseModelId(argument));
          say(`model ${chat.agent.modelId} for the next turns`);
        }
        break;
      case 'mode':
        if (argument === '') say(`mode ${chat.agent.mode} (choose ${SAFETY_MODES.join(', ')})`);
        else
          chat.agent.mode = await switchMode(chat.agent.mode, argument, chat.options.editor, say);
        break;
      case 'output':
        say(formatLastOutput(chat.display.lastCommandOutput));
        break;
      case 'thinking':
        say(
          describeThinking(
            chat.display.showThinking(parseSwitch(argument, !chat.display.showsThinking)),
          ),
        );
        break;
      case 'diff':
        chat.output.stderr.write(
          `${await formatSessionDiff(chat.agent.options.workspaceRoot, await chat.agent.originals(), chat.output.colors)}\n`,
        );
        break;
      case 'ask':
        if (argument === '') throw new UsageError('/ask needs a question: /ask <question>');
        await chat.runTurn(argument, 'plan');
        printStatusLine(chat);
        break;
      case 'permissions':
        say(formatPermissions(chat.agent.state.grants.list(), chat.agent.options.permissions));
        say(`mode ${chat.agent.mode}`);
        break;
      case 'todo':
        say(formatTodos(chat.agent.state.todos));
        break;
      case 'compact': {
        const result = await chat.compact();
        say(
          result === undefined
            ? 'nothing to compact'
            : `compacted: ${result.tokensBefore} -> ${result.tokensAfter} tokens`,
        );
        break;
      }
      case 'tokens': {
        const tokens = chat.agent.contextTokens();
        const window = chat.agent.contextWindow();
        say(
          `context ${tokens} tokens (estimated) of ${window} (${Math.round((100 * tokens) / window)}%)`,
        );
        break;
      }
      case 'cost':
        say(
          formatUsageLine({
            type: 'done',
            stopReason: 'completed',
            answer: '',
            modelCalls: chat.agent.modelCalls,
            usage: chat.agent.state.usage,
            costUsd: chat.agent.state.costUsd,
            ...(chat.agent.session ? { sessionId: chat.agent.session.id } : {}),
          }),
        );
        break;
      case 'undo':
        say(formatUndo(await chat.agent.undo()));
        break;
      case 'clear':
        await chat.agent.clear();
        say('started a fresh conversation');
        break;
      case 'save': {
        const session = await chat.agent.save(argument === '' ? undefined : argument);
        say(
          argument === ''
            ? `session ${session.id} is saved (name it with /save <name>)`
            : `session ${session.id} saved as ${argument}`,
        );
        break;
      }
      case 'load':
        if (argument === '') {
          const { stateDir, workspaceRoot } = chat.agent.options;
          say(
            formatSessionList(await listSessions(stateDir, workspaceRoot), chat.agent.session?.id),
          );
        } else {
          const loaded = await chat.agent.load(argument);
          const name = loaded.summary.name === undefined ? '' : ` (${loaded.summary.name})`;
          say(`loaded session ${loaded.summary.id}${name}: ${loaded.turns} turns`);
          await showRecap(chat, loaded, CHAT_PROMPTS);
        }
        break;
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`error: ${error.message}`);
    say(`hint: ${error.hint ?? '/help lists the commands'}`);
  }
  return 'continue';
}

/** After each turn, on stderr: the status line, broken between its fields to fit a terminal. */
export function printStatusLine(chat: ChatSession): void {
  const { stderr, colors: c } = chat.output;
  const columns = (stderr as Partial<NodeJS.WriteStream>).columns;
  const fields = statusLine(chat).split(' · ');
  const rows: string[] = [];
  for (const field of fields) {
    const last = rows.at(-1);
    const joined = last === undefined ? field : `${last} · ${field}`;
    if (last !== undefined && (columns === undefined || visibleWidth(joined) <= columns))
      rows[rows.length - 1] = joined;
    else rows.push(...(columns === undefined ? [field] : wrapText(field, columns)));
  }
  stderr.write(`${rows.map((row) => c.dim(row)).join('\n')}\n`);
}

/** The line printed after each turn. */
export function statusLine(chat: ChatSession): string {
  return formatStatusLine({
    modelId: chat.agent.modelId,
    mode: chat.agent.mode,
    contextTokens: chat.agent.contextTokens(),
    costUsd: chat.agent.state.costUsd,
  });
}

function formatLastOutput(kept: KeptCommandOutput | undefined): string {
  if (kept === undefined) return 'no command has run in this chat yet';
  const command = kept.command.replace(/\s+/gu, ' ').trim();
  return `$ ${command}\n${kept.text === '' ? '(no output)' : kept.text}`;
}

function formatStatus(chat: ChatSession): string {
  const cost =
    chat.agent.state.costUsd === null
      ? 'unknown (no price for this model)'
      : `$${chat.agent.state.costUsd.toFixed(4)}`;
  const rows: [string, string][] = [
    ['model', chat.agent.modelId],
    ['mode', chat.agent.mode],
    [
      'context',
      `${chat.agent.contextTokens()} tokens (estimated) of ${chat.agent.contextWindow()}`,
    ],
    ['cost', cost],
    ['session', `${chat.agent.session?.id ?? '(not saved yet)'}, ${chat.agent.state.turns} turns`],
    ['workspace', chat.agent.options.workspaceRoot],
  ];
  return [
    ...rows.map(([label, value]) => `${label.padEnd(10)}${value}`),
    'todos:',
    formatTodos(chat.agent.state.todos)
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  ].join('\n');
}

/** What Ctrl-T and /thinking say after switching. */
export function describeThinking(isShown: boolean): string {
  return isShown
    ? 'thinking shown (Ctrl-T or /thinking off hides it)'
    : 'thinking hidden (Ctrl-T or /thinking on shows it)';
}

/** `on` or `off` (also yes/no, show/hide); empty gives `fallback` (a toggle). */
function parseSwitch(argument: string, fallback: boolean): boolean {
  const word = argument.trim().toLowerCase();
  if (word === '') return fallback;
  if (['on', 'yes', 'show'].includes(word)) return true;
  if (['off', 'no', 'hide'].includes(word)) return false;
  throw new UsageError(`/thinking takes on or off, got ${JSON.stringify(argument)}`);
}
