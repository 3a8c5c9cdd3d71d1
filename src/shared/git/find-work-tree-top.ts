import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { readSmallTextFile } from '../files/read-small-text-file.js';

export interface WorkTreeLocation {
  /** The directory holding `.git`, or the root itself when there is none. */
  top: string;
  /** `info/exclude` of the repository, when there is one. */
  infoExcludeFile: string | null;
}

/** Finds the enclosing git work tree by looking for `.git` upwards, without running git. */
export async function findWorkTreeTop(root: string): Promise<WorkTreeLocation> {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const stats = await lstat(dotGit).catch(() => null);
    if (stats?.isDirectory()) {
      return { top: dir, infoExcludeFile: path.join(dotGit, 'info', 'exclude') };
    }
    if (stats?.isFile()) return { top: dir, infoExcludeFile: await findLinkedInfoExclude(dotGit) };
    if (path.dirname(dir) === dir) return { top: root, infoExcludeFile: null };
  }
}

// A linked work tree or submodule has a ".git" file naming its git directory; info/exclude
// lives in the common directory that one names.
async function findLinkedInfoExclude(dotGitFile: string): Promise<string | null> {
  const text = await readSmallTextFile(dotGitFile);
  const match = text === null ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match?.[1]) return null;
  const gitDir = path.resolve(path.dirname(dotGitFile), match[1]);
  const commonDir = (await readSmallTextFile(path.join(gitDir, 'commondir')))?.trim();
  const base = commonDir ? path.resolve(gitDir, commonDir) : gitDir;
  return path.join(base, 'info', 'exclude');
}
