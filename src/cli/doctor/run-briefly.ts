import { execFile } from 'node:child_process';

/** Long enough for `--version` or a trivial bwrap run on a slow machine, short enough not to stall doctor. */
const RUN_TIMEOUT_MS = 5_000;

export interface BriefRun {
  isSuccess: boolean;
  stdout: string;
  /** The first line of stderr, or why it could not run. */
  reason: string;
}

/** Runs one of doctor's fixed commands (bash/git `--version`, a trivial bwrap) with no shell and a timeout. */
export function runBriefly(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<BriefRun> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: RUN_TIMEOUT_MS, env, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const firstLine = (stderr || '')
          .split('\n')
          .find((line) => line.trim() !== '')
          ?.trim();
        if (!error) return resolve({ isSuccess: true, stdout, reason: '' });
        const why = error.killed
          ? `no answer within ${RUN_TIMEOUT_MS} ms`
          : (firstLine ?? error.message);
        resolve({ isSuccess: false, stdout, reason: why });
      },
    );
  });
}
