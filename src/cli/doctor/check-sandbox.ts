import type { DoctorCheck } from './doctor-check.js';
import { findOnPath } from './find-on-path.js';
import { runBriefly } from './run-briefly.js';

/** Whether bubblewrap works here: found on PATH and able to run `true` in a read-only bind of `/`. */
export async function checkSandbox(
  env: NodeJS.ProcessEnv,
  platform: string = process.platform,
): Promise<DoctorCheck> {
  const unavailable = (reason: string, hint: string): DoctorCheck => ({
    id: 'sandbox',
    status: 'warn',
    detail: `unavailable (${reason})`,
    hint,
    data: { isAvailable: false, reason },
  });
  if (platform !== 'linux')
    return unavailable('bwrap runs on Linux only', 'shell commands run without an OS sandbox');
  const bwrap = findOnPath('bwrap', env.PATH);
  if (bwrap === null)
    return unavailable('bwrap not found on PATH', 'install bubblewrap to sandbox shell commands');
  const run = await runBriefly(bwrap, ['--ro-bind', '/', '/', 'true'], env);
  if (!run.isSuccess) {
    return unavailable(
      `bwrap: ${run.reason}`,
      'user namespaces may be disabled; shell commands run without an OS sandbox',
    );
  }
  return {
    id: 'sandbox',
    status: 'ok',
    detail: `available (${bwrap})`,
    data: { isAvailable: true, path: bwrap },
  };
}
