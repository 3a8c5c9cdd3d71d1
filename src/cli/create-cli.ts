import { cac, type CAC } from 'cac';
import { OY_VERSION } from '../shared/version.js';
import type { GlobalOptions } from './global-options.js';

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

  cli.help();
  cli.version(OY_VERSION);
  return cli;
}
