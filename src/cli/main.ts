import { EXIT } from '../shared/errors.js';
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
  await createCli().run(process.argv.slice(2));
} catch (error) {
  process.exitCode = handleError(error, isVerbose, process.stderr);
}
