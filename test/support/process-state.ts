import { readFileSync } from 'node:fs';

/**
 * Whether a process still runs. A zombie does not: it is dead and only waits to be reaped (a container
 * without a real init may never reap an orphan's zombie).
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs, or the deadline passes; the ones still running. */
export async function waitUntilGone(
  pids: readonly number[],
  deadlineMs = 10_000,
): Promise<number[]> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const running = pids.filter(isRunning);
    if (running.length === 0 || Date.now() > deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
