import { listCredentialPresence } from '../../providers/list-credential-presence.js';
import type { DoctorCheck } from './doctor-check.js';

/** Which providers have credentials present, by variable and file name only (never a value). */
export function checkCredentials(env: NodeJS.ProcessEnv): DoctorCheck {
  const present = listCredentialPresence(env).filter((entry) => entry.found.length > 0);
  const detail =
    present.length === 0
      ? 'none found in the environment'
      : present.map((entry) => `${entry.provider} (${entry.found.join(', ')})`).join('; ');
  return {
    id: 'credentials',
    status: 'info',
    detail,
    data: {
      present: present.map(({ provider, found, isPresent }) => ({ provider, found, isPresent })),
    },
  };
}
