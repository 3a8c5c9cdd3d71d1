import pc from 'picocolors';
import type { GlobalOptions } from './global-options.js';

export type Colors = ReturnType<typeof pc.createColors>;

/** Whether to colour a stream: `--no-color` and NO_COLOR turn it off, FORCE_COLOR forces it, else only on a terminal. */
export function shouldColor(
  stream: NodeJS.WriteStream,
  options: Pick<GlobalOptions, 'color'>,
  env: NodeJS.ProcessEnv,
): boolean {
  if (options.color === false || 'NO_COLOR' in env) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

export function createColors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}
