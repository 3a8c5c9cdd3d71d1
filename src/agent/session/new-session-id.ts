import { randomBytes } from 'node:crypto';

/** `20261122-044400-1a2b3c`: UTC time first so ids sort by age, random hex so two starts in a second differ. */
export function newSessionId(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
