import { COMMANDS, GLOBAL_FLAGS, SHORTHAND } from './command-table.js';
import { isValueFlag, type CommandSpec, type FlagSpec } from './flag-spec.js';

/** The help of one command, or of oy itself when `command` is null; every line comes from the flag table. */
export function renderHelp(command: CommandSpec | null, version: string): string {
  const sections = command === null ? topLevelSections() : commandSections(command);
  return `oy/${version}\n\n${sections.map(renderSection).join('\n')}`;
}

interface Section {
  title: string;
  rows: [string, string][] | string[];
}

function topLevelSections(): Section[] {
  return [
    { title: 'Usage', rows: ['$ oy <command> [options]', '$ oy "<prompt>" [run options]'] },
    {
      title: 'Commands',
      rows: [
        ...COMMANDS.map((command): [string, string] => [
          `${command.name} ${command.args}`.trim(),
          command.description,
        ]),
        [SHORTHAND.args, SHORTHAND.description],
      ],
    },
    {
      title: 'For more info, run oy help <command> or any command with --help',
      rows: COMMANDS.filter((command) => command.name !== 'help').map(
        (command) => `$ oy help ${command.name}`,
      ),
    },
    { title: 'Options', rows: flagRows(GLOBAL_FLAGS) },
    { title: 'Run options (oy run, and oy "<prompt>")', rows: flagRows(SHORTHAND.flags) },
  ];
}

function commandSections(command: CommandSpec): Section[] {
  const sections: Section[] = [
    { title: 'Usage', rows: [`$ oy ${command.name} ${command.args}`.trimEnd()] },
    { title: 'Description', rows: [command.description] },
  ];
  if (command.flags.length > 0) sections.push({ title: 'Options', rows: flagRows(command.flags) });
  sections.push({ title: 'Global options', rows: flagRows(GLOBAL_FLAGS) });
  sections.push({ title: 'Examples', rows: command.examples.map((example) => `$ ${example}`) });
  return sections;
}

function flagRows(flags: readonly FlagSpec[]): [string, string][] {
  return flags.map((flag) => {
    const names = `${flag.short === undefined ? '' : `-${flag.short}, `}--${flag.name}`;
    const left = isValueFlag(flag) ? `${names} ${flag.placeholder}` : names;
    const right =
      flag.defaultText === undefined ? flag.help : `${flag.help} (default: ${flag.defaultText})`;
    return [left, right];
  });
}

function renderSection(section: Section): string {
  const lines = section.rows.every((row) => typeof row === 'string')
    ? (section.rows as string[]).map((row) => `  ${row}`)
    : alignRows(section.rows as [string, string][]);
  return `${section.title}:\n${lines.join('\n')}\n`;
}

function alignRows(rows: readonly [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}
