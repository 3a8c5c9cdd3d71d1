import path from 'node:path';
import {
  loadOuterIgnoreRules,
  type GitignoreRules,
} from '../../../shared/ignore/load-outer-ignore-rules.js';
import { readSmallTextFile } from '../../../shared/files/read-small-text-file.js';

/**
 * The gitignore rules in force at `start` (root-relative POSIX, '' for the root), before the
 * walk reads `start`'s own `.gitignore`: git's global and repository excludes, the `.gitignore`
 * files above the workspace up to the work tree top, then those from the root down to `start`.
 * Only ignore files are read outside the workspace, never shown to the model.
 */
export async function loadWalkRules(
  realRoot: string,
  start: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<GitignoreRules> {
  const rules = await loadOuterIgnoreRules(realRoot, {
    homeDir: env.HOME,
    xdgConfigHome: env.XDG_CONFIG_HOME,
  });
  const segments = start === '' ? [] : start.split('/');
  for (let depth = 0; depth < segments.length; depth += 1) {
    const dir = segments.slice(0, depth).join('/');
    const text = await readSmallTextFile(path.join(realRoot, dir, '.gitignore'));
    if (text !== null) rules.matcher.addFile(text, rules.prefix + dir);
  }
  return rules;
}
