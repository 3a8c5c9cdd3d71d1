import type { ConfigFile } from '../../config/config-schema.js';
import type { DoctorCheck } from './doctor-check.js';

/** The default mode's policy (agent.md) in one line, with the number of permission rules configured. */
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
  return {
    id: 'safety',
    status: 'info',
    detail:
      'default mode ask: reads allowed; writes, shell and network ask (denied when not interactive); ' +
      `rules: ${rules.allow} allow, ${rules.ask} ask, ${rules.deny} deny`,
    data: { defaultMode: 'ask', rules },
  };
}
