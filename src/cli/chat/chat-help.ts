import { SLASH_COMMANDS } from './slash-commands.js';

/** The keys the line editor understands, as /help lists them. */
const KEYS: readonly [string, string][] = [
  ['Enter', 'send'],
  ['\\ at the end of a line, Alt+Enter', 'new line'],
  ['Up / Down', 'earlier inputs'],
  ['Ctrl-R', 'search earlier inputs; Enter sends, Esc or Ctrl-G leaves'],
  ['Tab', 'complete a /command, its argument, or an @file'],
  ['@path', 'attach a workspace file'],
  ['Esc, Ctrl-C', 'stop the running turn or command'],
  ['Esc Esc', 'on an empty line: edit your previous prompt'],
  ['Shift+Tab', 'next safety mode: plan, ask, edit, auto (asked first)'],
  ['Ctrl-T', "show or hide the model's thinking"],
  ['Ctrl-A/E, Alt-B/F', 'line start/end, word back/forward'],
  ['Ctrl-K/U/W', 'delete to line end/start, the word before'],
  ['Ctrl-L', 'clear the screen'],
  ['Ctrl-C', 'clear the line; twice on an empty line to exit'],
  ['Ctrl-D', 'exit (on an empty line)'],
];

/** The text of /help. */
export function formatChatHelp(): string {
  const usages = SLASH_COMMANDS.map((spec) =>
    spec.argument === undefined ? `/${spec.name}` : `/${spec.name} ${spec.argument}`,
  );
  const width = Math.max(
    ...usages.map((usage) => usage.length),
    ...KEYS.map(([key]) => key.length),
  );
  const commands = SLASH_COMMANDS.map(
    (spec, index) => `  ${usages[index]!.padEnd(width)}  ${spec.summary}`,
  );
  const keys = KEYS.map(([key, what]) => `  ${key.padEnd(width)}  ${what}`);
  return ['Commands:', ...commands, '', 'Keys:', ...keys, ''].join('\n');
}
