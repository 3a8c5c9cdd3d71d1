import { readFileSync, readdirSync } from 'node:fs';

/** A SIGKILLed process is gone within milliseconds; past this something is badly wrong. */
const GROUP_EXIT_LIMIT_MS = 1_000;
const POLL_MS = 10;

/**
 * Waits until no process of the group is still running, so a killed group is really gone when
 * the caller returns (a signal is delivered, not acted on, when kill() returns). Zombies count as
 * gone: they run nothing and wait only for their parent to reap them.
 */
export async function waitForGroupExit(groupId: number): Promise<void> {
  const deadline = Date.now() + GROUP_EXIT_LIMIT_MS;
  while (hasLiveMembers(groupId) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function hasLiveMembers(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
  } catch {
    return false;
  }
  // Elsewhere there is no cheap way to tell zombies apart; the signals were sent.
  if (process.platform !== 'linux') return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return false;
  }
  return entries.some((entry) => /^\d+$/.test(entry) && isLiveMember(entry, groupId));
}

/** Reads `/proc/<pid>/stat`: the fields after the command name are state, ppid, pgrp. */
function isLiveMember(pid: string, groupId: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(group) === groupId && state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
