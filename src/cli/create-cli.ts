import { UsageError } from '../shared/errors.js';
import { OY_VERSION } from '../shared/version.js';
import { COMMANDS, SHORTHAND, findCommand } from './flags/command-table.js';
import { flagKey, type CommandSpec, type FlagValues } from './flags/flag-spec.js';
import { parseCommandLine } from './flags/parse-command-line.js';
import { renderHelp } from './flags/render-help.js';
import type { GlobalOptions } from './global-options.js';

export interface Cli {
  /** Parses the arguments (without node and the script) and runs the command they name. */
  run(args: readonly string[]): Promise<void>;
}

/** Builds the CLI. Each command's module is imported only when it runs, so help and --version stay fast. */
export function createCli(output: NodeJS.WritableStream = process.stdout): Cli {
  return {
    async run(args) {
      const { command, positionals, values } = parseCommandLine(args);
      if (values.version) {
        output.write(
          `oy/${OY_VERSION} ${process.platform}-${process.arch} node-${process.version}\n`,
        );
        return;
      }
      if (command?.name === 'help')
        return void output.write(renderHelp(helpTarget(positionals), OY_VERSION));
      if (values.help || command === null)
        return void output.write(renderHelp(command === SHORTHAND ? null : command, OY_VERSION));
      refuseExtraWords(command, positionals);
      await refuseBadGlobalValues(command, values);
      await dispatch(command, positionals, values);
    },
  };
}

/** `oy help [command]`: the same text as `oy <command> --help`; an unknown name is a usage error. */
function helpTarget(positionals: readonly string[]): CommandSpec | null {
  const [name] = positionals;
  if (name === undefined) return null;
  const command = findCommand(name);
  if (command === undefined)
    throw new UsageError(`unknown command "${name}"`, {
      hint: `the commands are ${COMMANDS.map((each) => each.name).join(', ')}; oy --help lists them`,
    });
  return command;
}

/** Commands without `...` in their usage take at most as many words as it names. */
function refuseExtraWords(command: CommandSpec, positionals: readonly string[]): void {
  if (command.args.includes('...')) return;
  const allowed = (command.args.match(/[[<]/g) ?? []).length;
  if (positionals.length <= allowed) return;
  throw new UsageError(
    `oy ${command.name} takes ${allowed === 0 ? 'no words' : `at most ${allowed} word${allowed === 1 ? '' : 's'}`}, got \`${positionals.slice(allowed).join(' ')}\``,
    { hint: `usage: oy ${command.name} ${command.args}`.trimEnd() },
  );
}

/**
 * A `--model` oy cannot read, or a `--cwd` that is no folder, is a bad flag value in every command,
 * even one that does not use it (`oy sessions --model`, `oy model --cwd`), rather than silently
 * ignored. `oy doctor` reports both as failed checks among the others. Loaded only when given.
 */
async function refuseBadGlobalValues(command: CommandSpec, values: FlagValues): Promise<void> {
  if (command.name === 'doctor') return;
  if (typeof values.cwd === 'string') {
    const { resolveWorkspaceRoot } = await import('./resolve-workspace-root.js');
    resolveWorkspaceRoot(values.cwd, process.env);
  }
  if (typeof values.model === 'string') {
    const { parseModelId } = await import('../providers/model-id/parse-model-id.js');
    parseModelId(values.model);
  }
}

async function dispatch(
  command: CommandSpec,
  positionals: string[],
  values: FlagValues,
): Promise<void> {
  const options = values as GlobalOptions & Record<string, unknown>;
  switch (command.name) {
    case 'audit': {
      const { runAuditCommand } = await import('./commands/audit-command.js');
      return runAuditCommand(positionals[0], positionals.slice(1), options);
    }
    case 'model': {
      const { runModelCommand } = await import('./commands/model-command.js');
      return runModelCommand(positionals[0], options);
    }
    case 'doctor': {
      const { runDoctorCommand } = await import('./commands/doctor-command.js');
      return runDoctorCommand(options);
    }
    case 'chat': {
      const { runChatCommand } = await import('./commands/chat-command.js');
      return runChatCommand(options);
    }
    case 'sessions': {
      const { runSessionsCommand } = await import('./commands/sessions-command.js');
      return runSessionsCommand(options, positionals[0], positionals[1]);
    }
    case 'report': {
      const { runReportCommand } = await import('./commands/report-command.js');
      return runReportCommand(positionals[0], positionals.slice(1), options);
    }
    case 'mcp': {
      const { runMcpCommand } = await import('./commands/mcp-command.js');
      return runMcpCommand(positionals[0], options);
    }
    case 'run': {
      const { runRunCommand } = await import('./commands/run-command.js');
      return runRunCommand(positionals, options);
    }
    default: {
      // A run flag (`oy -c next`) says the words are a prompt, whatever they look like.
      const hasRunFlag = SHORTHAND.flags.some((flag) => flagKey(flag) in values);
      if (!hasRunFlag) {
        const { refuseCommandLikeWord } = await import('./run/refuse-command-like-word.js');
        refuseCommandLikeWord(
          positionals,
          COMMANDS.map((each) => each.name),
        );
      }
      const { runRunCommand } = await import('./commands/run-command.js');
      return runRunCommand(positionals, options);
    }
  }
}
