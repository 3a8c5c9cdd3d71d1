import type { ConfigFile } from '../../config/config-schema.js';
import { kindsWith } from '../../safety/policy/mode-table.js';
import { DEFAULT_SAFETY_MODE } from '../../safety/policy/safety-mode.js';
import type { DoctorCheck } from './doctor-check.js';

/** The default mode's policy (README.md "Agent mode") in one line, with the number of permission rules configured. */
export function describeSafetyPolicy(
  userFile: ConfigFile | undefined,
  projectFile: ConfigFile | undefined,
): DoctorCheck {
  const count = (file: ConfigFile | undefined, kind: 'allow' | 'ask' | 'deny') =>
    file?.permissions?.[kind]?.length ?? 0;
  // A project file may not allow anything (the merge drops its allow rules), so only the user's count.
  const rules = {
    allow: count(userFile, 'allow'),
    ask: count(userFile, 'ask') + count(projectFile, 'ask'),
    deny: count(userFile, 'deny') + count(projectFile, 'deny'),
  };
  const mode = DEFAULT_SAFETY_MODE;
  const kinds = (outcome: 'allow' | 'ask' | 'deny', suffix: string) => {
    const list = kindsWith(mode, outcome);
    return list.length === 0 ? [] : [`${list.join(', ')} ${suffix}`];
  };
  const table = [
    ...kinds('allow', 'allowed'),
    ...kinds('ask', 'ask (denied when not interactive)'),
    ...kinds('deny', 'refused'),
  ].join('; ');
  return {
    id: 'safety',
    status: 'info',
    detail: `default mode ${mode}: ${table}; rules: ${rules.allow} allow, ${rules.ask} ask, ${rules.deny} deny`,
    data: { defaultMode: mode, rules },
  };
}
