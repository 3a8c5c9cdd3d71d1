import { EXIT, UsageError } from '../shared/errors.js';
import { createCli } from './create-cli.js';
import { handleError } from './handle-error.js';

const isVerbose = process.argv.includes('--verbose');

// The AWS SDK warns on every load under Node 20, which oy supports; the user may still turn it on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

process.on('SIGINT', () => {
  process.stderr.write('\ninterrupted\n');
  process.exit(EXIT.interrupted);
});

try {
  const cli = createCli();
  const parsed = cli.parse(process.argv, { run: false });
  const wantsHelpOrVersion = Boolean(parsed.options.help || parsed.options.version);
  if (!cli.matchedCommand && !wantsHelpOrVersion) {
    if (cli.args.length > 0) {
      throw new UsageError(`unknown command "${cli.args[0]}"`, {
        hint: 'run oy --help for the commands',
      });
    }
    cli.outputHelp();
  } else {
    await cli.runMatchedCommand();
  }
} catch (error) {
  process.exitCode = handleError(error, isVerbose, process.stderr);
}
