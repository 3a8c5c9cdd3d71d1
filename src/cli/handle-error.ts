import { EXIT, OyError } from '../shared/errors.js';

interface CacError extends Error {
  name: 'CACError';
}

function isCacError(error: unknown): error is CacError {
  return error instanceof Error && error.name === 'CACError';
}

/** The one place that turns an error into output and an exit code. */
export function handleError(
  error: unknown,
  isVerbose: boolean,
  stderr: NodeJS.WritableStream,
): number {
  if (error instanceof OyError) {
    stderr.write(`error: ${error.message}\n`);
    if (error.hint) stderr.write(`hint: ${error.hint}\n`);
    if (isVerbose && error.stack) stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  if (isCacError(error)) {
    stderr.write(`error: ${error.message}\nhint: run oy --help for the commands and flags\n`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`error: internal error: ${message}\n`);
  if (isVerbose && error instanceof Error && error.stack) {
    stderr.write(`${error.stack}\n`);
  } else {
    stderr.write('hint: run again with --verbose for details, and report it if it persists\n');
  }
  return EXIT.runtime;
}
