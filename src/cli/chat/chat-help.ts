import { SLASH_COMMANDS } from './slash-commands.js';

/** The keys the line editor understands, as /help lists them. */
const KEYS: readonly [string, string][] = [
  ['Enter', 'send'],
  ['\\ at the end of a line, Alt+Enter', 'new line'],
  ['Up / Down', 'earlier inputs'],
  ['@path, Tab after @', 'attach a workspace file; Tab completes its name'],
  ['Ctrl-C', 'stop the running turn; clear the line; twice to exit'],
  ['Ctrl-D', 'exit (on an empty line)'],
];

/** The text of /help (also shown after an unknown command). */
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
