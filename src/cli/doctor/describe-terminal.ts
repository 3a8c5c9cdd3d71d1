import { shouldColor } from '../terminal.js';
import type { GlobalOptions } from '../global-options.js';
import type { DoctorCheck } from './doctor-check.js';

/** Whether stdout and stderr are terminals, the colour decision and its reason, and the width. */
export function describeTerminal(
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
  options: Pick<GlobalOptions, 'color'>,
  env: NodeJS.ProcessEnv,
): DoctorCheck {
  const isColored = shouldColor(stderr, options, env);
  const reason =
    options.color === false
      ? '--no-color'
      : 'NO_COLOR' in env
        ? 'NO_COLOR'
        : env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0'
          ? 'FORCE_COLOR'
          : stderr.isTTY
            ? 'terminal'
            : 'not a terminal';
  const columns = stdout.columns ?? stderr.columns ?? null;
  const tty = (stream: NodeJS.WriteStream) => (stream.isTTY ? 'terminal' : 'not a terminal');
  return {
    id: 'terminal',
    status: 'info',
    detail: `stdout: ${tty(stdout)}, stderr: ${tty(stderr)}, colour: ${isColored ? 'on' : 'off'} (${reason}), columns: ${columns ?? 'n/a'}`,
    data: {
      stdoutIsTTY: Boolean(stdout.isTTY),
      stderrIsTTY: Boolean(stderr.isTTY),
      isColored,
      colorReason: reason,
      columns,
    },
  };
}
