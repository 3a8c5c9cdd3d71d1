import { probeSandbox } from '../../agent/index.js';
import type { SandboxSetting } from '../../config/config-schema.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * Whether shell commands run sandboxed: the same probe the bash tool uses (bwrap on PATH, able to
 * start a command with the sandbox's namespaces), read against the `sandbox` config setting.
 */
export async function checkSandbox(
  env: NodeJS.ProcessEnv,
  platform: string = process.platform,
  setting: SandboxSetting = 'auto',
): Promise<DoctorCheck> {
  const probe = await probeSandbox(env, platform);
  if (!probe.available) {
    const data = { isAvailable: false, reason: probe.reason, setting };
    return {
      id: 'sandbox',
      // With sandbox: off nothing is missing: the user chose to run commands unsandboxed.
      status: setting === 'off' ? 'info' : 'warn',
      detail: `unavailable (${probe.reason})`,
      hint: hintFor(probe.reason, setting),
      data,
    };
  }
  const data = { isAvailable: true, path: probe.bwrapPath, setting };
  if (setting === 'off') {
    return {
      id: 'sandbox',
      status: 'info',
      detail: 'available, but shell commands run unsandboxed (sandbox: off)',
      hint: 'set "agent": {"sandbox": "auto"} in the config to use it',
      data,
    };
  }
  return {
    id: 'sandbox',
    status: 'ok',
    detail: `available: bwrap works; shell commands run sandboxed (sandbox: ${setting})`,
    data,
  };
}

function hintFor(reason: string, setting: SandboxSetting): string {
  if (setting === 'off') return 'sandbox: off; shell commands run without an OS sandbox';
  if (setting === 'on')
    return 'sandbox: on, so the bash tool refuses to run commands until bwrap works';
  if (reason === 'bwrap not found on PATH') return 'install bubblewrap to sandbox shell commands';
  if (reason === 'bwrap runs on Linux only') return 'shell commands run without an OS sandbox';
  return 'user namespaces may be disabled; shell commands run without an OS sandbox';
}
