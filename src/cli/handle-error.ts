import { EXIT, OyError } from '../shared/errors.js';
import { neutralizeControl } from '../shared/terminal/neutralize-control.js';

/** The one place that turns an error into output and an exit code; messages may quote input, so they are shown inertly. */
export function handleError(
  error: unknown,
  isVerbose: boolean,
  stderr: NodeJS.WritableStream,
): number {
  const write = (text: string) => void stderr.write(neutralizeControl(text));
  if (error instanceof OyError) {
    write(`error: ${error.message}\n`);
    // Every error says what to do next; a bad value without its own advice points at the help.
    if (error.hint) write(`hint: ${error.hint}\n`);
    else if (error.exitCode === EXIT.usage)
      write('hint: run oy help <command> for the flags and the values they take\n');
    if (isVerbose && error.stack) write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  write(`error: internal error: ${message}\n`);
  if (isVerbose && error instanceof Error && error.stack) {
    write(`${error.stack}\n`);
  } else {
    stderr.write('hint: run again with --verbose for details, and report it if it persists\n');
  }
  return EXIT.runtime;
}
