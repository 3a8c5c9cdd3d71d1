import path from 'node:path';
import type { GitHomeDirectories } from '../git/build-git-environment.js';
import { findGlobalExcludesFile } from '../git/find-global-excludes-file.js';
import { findWorkTreeTop } from '../git/find-work-tree-top.js';
import { createIgnoreMatcher, type IgnoreMatcher } from './ignore-matcher.js';
import { readSmallTextFile } from '../files/read-small-text-file.js';

export interface GitignoreRules {
  /** Rules over paths relative to the work tree top; the walker adds each `.gitignore` it meets. */
  matcher: IgnoreMatcher;
  /** The root's path below the work tree top, '' or ending with '/'. */
  prefix: string;
}

/**
 * The ignore rules that apply before the walk reaches any `.gitignore` of its own, lowest
 * precedence first: the global excludes file, `.git/info/exclude`, and the `.gitignore` files of
 * the directories between the work tree top and the root.
 */
export async function loadOuterIgnoreRules(
  root: string,
  home: GitHomeDirectories,
): Promise<GitignoreRules> {
  const { top, infoExcludeFile } = await findWorkTreeTop(root);
  const matcher = createIgnoreMatcher();
  const globalFile = await findGlobalExcludesFile(home, top);
  for (const file of [globalFile, infoExcludeFile]) {
    const text = file === null ? null : await readSmallTextFile(file);
    if (text !== null) matcher.addFile(text);
  }
  const relative = path.relative(top, root).split(path.sep).join('/');
  const segments = relative === '' ? [] : relative.split('/');
  for (let depth = 0; depth < segments.length; depth++) {
    const dir = segments.slice(0, depth).join('/');
    const text = await readSmallTextFile(path.join(top, dir, '.gitignore'));
    if (text !== null) matcher.addFile(text, dir);
  }
  return { matcher, prefix: relative === '' ? '' : `${relative}/` };
}
