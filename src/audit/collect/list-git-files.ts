import type { LedgerEntry } from '../types.js';
import type { ListedPath } from './collect-types.js';
import { decodeFileName } from '../../shared/files/decode-file-name.js';
import { runGit } from '../../shared/git/run-git.js';
import { skipEntry } from './skip-entry.js';
import { splitNul } from '../../shared/git/split-nul.js';

const TAB = 0x09;
const GITLINK_MODE = '160000';

export interface GitListing {
  files: ListedPath[];
  /** Directories git could not open, which it leaves out of its listing. */
  ledger: LedgerEntry[];
}

/**
 * Lists what git tracks plus the untracked files it does not ignore, under `root` (git's own
 * `.gitignore`, `info/exclude` and the user's global excludes file from `prepareGitEnvironment`). Returns null when `root` is not in a
 * git work tree or git cannot run, so the caller walks the directory instead.
 */
export async function listGitFiles(
  root: string,
  env: Record<string, string>,
): Promise<GitListing | null> {
  // Run from the root with no pathspec: git lists only that subtree, relative to it.
  const [tracked, untracked, prefix] = await Promise.all([
    runGit(['ls-files', '-z', '--cached', '--stage'], { cwd: root, env }),
    runGit(['ls-files', '-z', '--others', '--exclude-standard'], { cwd: root, env }),
    runGit(['rev-parse', '--show-prefix'], { cwd: root, env }),
  ]);
  if (!tracked.ok || !untracked.ok || !prefix.ok) return null;

  const listed = new Map<string, ListedPath>();
  for (const record of splitNul(tracked.stdout)) {
    // "<mode> <object> <stage>\t<path>"; an unmerged path appears once per stage.
    const tab = record.indexOf(TAB);
    if (tab === -1) continue;
    const mode = record.subarray(0, record.indexOf(0x20)).toString('latin1');
    addListed(listed, record.subarray(tab + 1), true, mode === GITLINK_MODE);
  }
  for (const record of splitNul(untracked.stdout)) addListed(listed, record, false, false);
  const ledger = findUnreadableDirectories(untracked.stderr, prefix.stdout.toString('utf8').trim());
  return { files: [...listed.values()], ledger };
}

// git skips a directory it cannot open with only a warning (LC_ALL=C keeps it in English),
// naming it from the top of the work tree.
const UNREADABLE_DIRECTORY = /^warning: could not open directory '(.+)': (.+)$/gm;

function findUnreadableDirectories(stderr: string, prefix: string): LedgerEntry[] {
  const ledger: LedgerEntry[] = [];
  for (const [, dir = '', message = ''] of stderr.matchAll(UNREADABLE_DIRECTORY)) {
    if (!dir.startsWith(prefix) || dir === prefix) continue;
    const relDir = dir.slice(prefix.length).replace(/\/?$/, '/');
    ledger.push(skipEntry(relDir, 'unreadable', message));
  }
  return ledger;
}

function addListed(
  listed: Map<string, ListedPath>,
  name: Buffer,
  isTracked: boolean,
  isGitlink: boolean,
): void {
  // An untracked nested repository is listed as "dir/"; the stat check reports it as a directory.
  const bare = name.at(-1) === 0x2f ? name.subarray(0, -1) : name;
  // Keyed by the raw bytes, so two invalid names with the same lossy text both survive.
  const key = bare.toString('latin1');
  if (listed.has(key)) return;
  const decoded = decodeFileName(bare);
  listed.set(key, {
    path: decoded.text,
    isValidName: decoded.isValid,
    ...(decoded.isValid ? {} : { nameBytes: Buffer.from(bare) }),
    isTracked,
    isGitlink,
  });
}
