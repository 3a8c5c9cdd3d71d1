import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a live process. A zombie counts as gone: it runs nothing and only waits for
 * its parent (here often a container's PID 1) to reap it.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits (polling) until `check` holds, for at most `limitMs`; the caller asserts afterwards. */
export async function waitFor(check: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}
