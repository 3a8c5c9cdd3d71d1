import { nearestName } from '../../shared/text/nearest-name.js';

/** A slash command, its argument (if it takes one) and what it does, in the order /help lists them. */
export interface SlashCommandSpec {
  name: SlashCommandName;
  argument?: string;
  summary: string;
}

export type SlashCommandName =
  | 'help'
  | 'status'
  | 'model'
  | 'mode'
  | 'ask'
  | 'permissions'
  | 'todo'
  | 'compact'
  | 'tokens'
  | 'cost'
  | 'undo'
  | 'diff'
  | 'output'
  | 'clear'
  | 'save'
  | 'load'
  | 'thinking'
  | 'quit';

export const SLASH_COMMANDS: readonly SlashCommandSpec[] = [
  { name: 'help', summary: 'this list' },
  { name: 'status', summary: 'model, mode, context size, cost, todos and session' },
  {
    name: 'model',
    argument: '[id]',
    summary: 'show the model, or switch to another for later turns',
  },
  {
    name: 'mode',
    argument: '[name]',
    summary: 'show the safety mode, or switch: plan, ask, edit, auto',
  },
  {
    name: 'ask',
    argument: '<question>',
    summary: 'one read-only turn (plan mode for that turn only)',
  },
  { name: 'permissions', summary: 'rules granted this session (always) and the config rules' },
  { name: 'todo', summary: "the agent's todo list" },
  { name: 'compact', summary: 'summarise older turns now to free context' },
  { name: 'tokens', summary: 'the estimated size of the next request' },
  { name: 'cost', summary: 'tokens and cost of this session' },
  { name: 'undo', summary: 'restore the files the last turn changed and forget that turn' },
  { name: 'diff', summary: 'what this chat changed in the workspace, as a diff' },
  { name: 'output', summary: "the last command's whole output (the turn shows it folded)" },
  { name: 'clear', summary: 'start a fresh conversation (a new session)' },
  { name: 'save', argument: '[name]', summary: 'name this session, to /load or --resume it later' },
  {
    name: 'load',
    argument: '[name|id|number]',
    summary: 'switch to a saved session; alone, list them',
  },
  { name: 'thinking', argument: '[on|off]', summary: "show or hide the model's thinking (Ctrl-T)" },
  { name: 'quit', summary: 'leave (also Ctrl-D, or Ctrl-C twice)' },
];

/** Other spellings people type. */
const ALIASES: Readonly<Record<string, SlashCommandName>> = {
  exit: 'quit',
  '?': 'help',
  expand: 'output',
  resume: 'load',
  sessions: 'load',
};

export type ParsedSlashCommand =
  { kind: 'command'; name: SlashCommandName; argument: string } | { kind: 'unknown'; name: string };

/** Edits within which an unknown command is taken for a typo of a known one (`/mdoel`, `/stauts`). */
const MAX_TYPO_DISTANCE = 2;

/** The command an unknown name most likely meant: the one it begins, else the nearest by spelling. */
export function suggestSlashCommand(name: string): SlashCommandName | undefined {
  const word = name.toLowerCase();
  if (word === '') return undefined;
  const names = SLASH_COMMANDS.map((spec) => spec.name);
  const begun = names.find((each) => each.startsWith(word));
  if (begun !== undefined) return begun;
  const near = nearestName(word, [...names, ...Object.keys(ALIASES)], MAX_TYPO_DISTANCE);
  if (near === undefined) return undefined;
  return Object.hasOwn(ALIASES, near) ? ALIASES[near] : (near as SlashCommandName);
}

/** `/mode plan` → `{kind: 'command', name: 'mode', argument: 'plan'}`; undefined when the input is not a command. */
export function parseSlashCommand(input: string): ParsedSlashCommand | undefined {
  const match = /^\/(\S*)\s*([\s\S]*)$/u.exec(input.trim());
  if (match === null) return undefined;
  const word = match[1]!.toLowerCase();
  const name =
    SLASH_COMMANDS.find((spec) => spec.name === word)?.name ??
    (Object.hasOwn(ALIASES, word) ? ALIASES[word] : undefined);
  if (name === undefined) return { kind: 'unknown', name: match[1]! };
  return { kind: 'command', name, argument: match[2]!.trim() };
}
