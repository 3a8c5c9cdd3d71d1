/** Sends `signal` to every process in the group `groupId` leads; a group already gone is fine. */
export function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // ESRCH: nothing left in the group. EPERM cannot happen for our own children.
  }
}
