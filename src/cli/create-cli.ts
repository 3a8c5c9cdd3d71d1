import { cac, type CAC, type Command } from 'cac';
import { OY_VERSION } from '../shared/version.js';
import type { GlobalOptions } from './global-options.js';

/** Command names, for telling a mistyped command from a one-word prompt. */
const COMMAND_NAMES = ['audit', 'run', 'chat', 'model', 'doctor', 'sessions', 'mcp'];

const RUN_OPTION_NAMES = [
  '--mode',
  '--max-turns',
  '--max-cost',
  '--out',
  '--continue',
  '--resume',
  '--no-session',
];

/** cac's keys for the run flags (`--no-session` arrives as `session: false`). */
const RUN_FLAG_KEYS = ['mode', 'maxTurns', 'maxCost', 'out', 'continue', 'c', 'resume'];

interface HelpSection {
  title?: string;
  body: string;
}

/** The top-level help is the shorthand command's: list its run flags apart, and drop the self-reference. */
function tidyTopLevelHelp(sections: HelpSection[]): HelpSection[] {
  const isTopLevel = sections.some((section) => section.body.includes('oy "<prompt>"'));
  if (!isTopLevel) return sections;
  const isRunOption = (line: string) =>
    RUN_OPTION_NAMES.some((name) => line.includes(`${name} `) || line.endsWith(name));
  return sections.flatMap((section) => {
    const lines = section.body.split('\n');
    if (section.title?.startsWith('For more info'))
      return [
        { ...section, body: lines.filter((line) => line.trim() !== '$ oy --help').join('\n') },
      ];
    if (section.title !== 'Options') return [section];
    return [
      { title: 'Options', body: lines.filter((line) => !isRunOption(line)).join('\n') },
      {
        title: 'Run options (oy run, and oy "<prompt>")',
        body: lines.filter(isRunOption).join('\n'),
      },
    ];
  });
}

/** Flags of `oy run`, also accepted by the `oy "prompt"` shorthand. */
function addRunOptions(command: Command): Command {
  return command
    .option('--mode <mode>', 'Safety mode: plan, ask, edit or auto (default ask; asks are refused)')
    .option('--max-turns <n>', 'Model calls before the run stops and summarises (default 100)')
    .option('--max-cost <usd>', 'Stop and summarise once this run has cost this many US dollars')
    .option('--out <file>', 'Also write the final answer to this file inside the workspace')
    .option('-c, --continue', 'Continue the latest session of this workspace')
    .option('--resume <session>', 'Continue a saved session: id, number from oy sessions, or name')
    .option('--no-session', 'Do not save this run as a session');
}

/** Builds the cac instance. Each action imports its command module only when it runs, so help and --version stay fast. */
export function createCli(): CAC {
  const cli = cac('oy');

  cli
    .option('--json', 'Machine-readable output on stdout')
    .option('--quiet', 'Only errors on stderr')
    .option('--verbose', 'More detail, and stack traces for errors')
    .option('--no-color', 'No colours (also NO_COLOR; FORCE_COLOR forces them)')
    .option('--cwd <dir>', 'Workspace directory (also OY_ROOT)')
    .option(
      '--model <id>',
      'Model id, such as anthropic::<model> or openai::gpt-5; oy model lists them (also OY_MODEL)',
    );

  cli
    .command('audit [path] [...focus]', 'Audit the workspace and write a report')
    .option(
      '--out <file>',
      'Report file inside the workspace (default ISSUES.md, oy.sarif or oy-audit.json)',
    )
    .option('--format <format>', 'Report format: markdown, sarif or json', { default: undefined })
    .option('--manifest <file>', 'Also write the coverage ledger (JSON) to this file')
    .option('--include <glob>', 'Only audit files matching this glob (repeatable)')
    .option('--exclude <glob>', 'Leave out files matching this glob (repeatable)')
    .option('--diff <ref>', 'Only audit files changed since this git ref')
    .option('--max-file-bytes <n>', 'Skip files larger than this (default 1048576)')
    .option('--chunk-tokens <n>', 'Provider tokens per chunk (default 64000)')
    .option('--max-chunks <n>', 'Refuse runs that need more chunks than this (default 80)')
    .option('--dry-run', 'Print the plan (files, chunks, tokens) and stop')
    .option(
      '--offline',
      'Deterministic checks only; no model is contacted (the default with no model)',
    )
    .option('--concurrency <n>', 'Model calls in flight at once (default 8)')
    .option('--max-cost <usd>', 'Refuse to start above this estimated cost; stop calling at it')
    .option(
      '--fail-on <severity>',
      'Exit 3 when a verified finding is at or above: critical, high, medium, low, info',
    )
    .option('--baseline <file>', 'Suppress findings whose fingerprint this baseline lists')
    .option('--write-baseline <file>', "Write this run's finding fingerprints as a baseline")
    .option(
      '--min-coverage <ratio>',
      'Exit 4 when less than this share (0 to 1) of files was reviewed',
    )
    .option('--allow-partial', 'Exit 0 even when some chunks could not be reviewed')
    .option('--force', 'Overwrite an existing --out or --manifest file that oy did not write')
    .option('--no-cache', 'Do not read or write the scan and review caches')
    .example('oy audit --out report.md')
    .example('oy audit . auth --format sarif --out oy.sarif')
    .action(async (path: string | undefined, focus: string[], options: GlobalOptions) => {
      const { runAuditCommand } = await import('./commands/audit-command.js');
      await runAuditCommand(path, focus, options as Parameters<typeof runAuditCommand>[2]);
    });

  cli
    .command('model [id]', 'List known and discovered models; with an id, save it as the default')
    .example('oy model')
    .example('oy model anthropic::claude-haiku-4-5')
    .action(async (id: string | undefined, options: GlobalOptions) => {
      const { runModelCommand } = await import('./commands/model-command.js');
      await runModelCommand(id, options);
    });

  cli
    .command(
      'doctor',
      'Check the set-up: node, workspace, config, credentials, model, tools, sandbox',
    )
    .option('--online', 'Also make one minimal request to the model to prove the credentials work')
    .action(async (options: GlobalOptions & { online?: boolean }) => {
      const { runDoctorCommand } = await import('./commands/doctor-command.js');
      await runDoctorCommand(options);
    });

  addRunOptions(
    cli.command(
      'run [...prompt]',
      'One task, non-interactive, then exit; the prompt from arguments or stdin',
    ),
  )
    .example('oy run "explain what src/main.ts does"')
    .example('oy run --mode edit --max-cost 0.50 "fix the failing test in test/parse.test.ts"')
    .example('git diff | oy run --mode plan --out review.md')
    .action(async (prompt: string[], options: GlobalOptions) => {
      const { runRunCommand } = await import('./commands/run-command.js');
      await runRunCommand(prompt, options);
    });

  cli
    .command('chat', 'Interactive session: a conversation with the agent, approvals at the prompt')
    .option('--mode <mode>', 'Safety mode: plan, ask, edit or auto (default ask); /mode changes it')
    .option('-c, --continue', 'Continue the latest session of this workspace')
    .option('--resume <session>', 'Continue a saved session: id, number from oy sessions, or name')
    .example('oy chat')
    .example('oy chat --mode plan')
    .example('oy chat -c')
    .action(async (options: GlobalOptions) => {
      const { runChatCommand } = await import('./commands/chat-command.js');
      await runChatCommand(options);
    });

  cli
    .command(
      'sessions [action] [session]',
      'List saved sessions for this workspace (id, date, first prompt, turns, cost); show <session> renders one',
    )
    .example('oy sessions show 1')
    .action(
      async (action: string | undefined, session: string | undefined, options: GlobalOptions) => {
        const { runSessionsCommand } = await import('./commands/sessions-command.js');
        await runSessionsCommand(options, action, session);
      },
    );

  cli
    .command(
      'mcp [action]',
      'MCP servers: list (each server, its status and tools) or approve (this workspace .mcp.json)',
    )
    .example('oy mcp list')
    .example('oy mcp approve')
    .action(async (action: string | undefined, options: GlobalOptions) => {
      const { runMcpCommand } = await import('./commands/mcp-command.js');
      await runMcpCommand(action, options);
    });

  // `oy "some prompt"`: words that are not a command are the prompt of `oy run`.
  addRunOptions(cli.command('[...prompt]', 'Shorthand for oy run "<prompt>"'))
    .usage('<command> [options]  |  oy "<prompt>" [run options]')
    .action(async (prompt: string[], options: GlobalOptions) => {
      if (prompt.length === 0) {
        cli.outputHelp();
        return;
      }
      // A run flag (`oy -c next`) says the words are a prompt, whatever they look like.
      const hasRunFlag = RUN_FLAG_KEYS.some((key) => key in options);
      if (!hasRunFlag) {
        const { refuseCommandLikeWord } = await import('./run/refuse-command-like-word.js');
        refuseCommandLikeWord(prompt, COMMAND_NAMES);
      }
      const { runRunCommand } = await import('./commands/run-command.js');
      await runRunCommand(prompt, options);
    });

  cli.help(tidyTopLevelHelp);
  cli.version(OY_VERSION);
  return cli;
}
