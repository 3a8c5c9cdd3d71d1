import { chmod, copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// The whole config git reads for snapshots (system and global config are off): no filter, hook,
// fsmonitor or program of any kind, and bytes stored as they are.
const PRIVATE_CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = false
\tfilemode = true
\tsymlinks = true
\tautocrlf = false
\tsafecrlf = false
\tfsmonitor = false
`;
// info/attributes wins over every .gitattributes in the work tree: no conversion on the way in.
const PRIVATE_ATTRIBUTES = '* -text -eol -ident -filter -working-tree-encoding -diff -merge\n';

/** Creates an empty folder, private to this user (0700), outside any workspace, for one session's snapshots. */
export async function createPrivateGitFolder(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'oy-snapshots-'));
}

/**
 * Makes `gitDir` a git directory owned by oy, or puts its config, attributes and excludes back as
 * oy wrote them (a command run outside the sandbox could have changed them since). The user's
 * `info/exclude` is copied so snapshots leave out what git would.
 */
export async function preparePrivateGitDir(
  gitDir: string,
  userInfoExclude: string | null,
): Promise<void> {
  await chmod(gitDir, 0o700);
  for (const folder of ['objects', 'refs/heads', 'refs/tags', 'info']) {
    await mkdir(path.join(gitDir, folder), { recursive: true, mode: 0o700 });
  }
  await writeFile(path.join(gitDir, 'HEAD'), 'ref: refs/heads/oy-snapshots\n', { mode: 0o600 });
  await writeFile(path.join(gitDir, 'config'), PRIVATE_CONFIG, { mode: 0o600 });
  await writeFile(path.join(gitDir, 'info', 'attributes'), PRIVATE_ATTRIBUTES, { mode: 0o600 });
  const exclude = path.join(gitDir, 'info', 'exclude');
  await writeFile(exclude, '', { mode: 0o600 });
  if (userInfoExclude !== null) await copyFile(userInfoExclude, exclude).catch(() => undefined);
}
