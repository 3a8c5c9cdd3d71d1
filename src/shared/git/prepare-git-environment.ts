import { buildGitEnvironment, type GitHomeDirectories } from './build-git-environment.js';
import { findWorkTreeTop } from './find-work-tree-top.js';
import { addGitConfigEntries, readUserGitSettings } from './read-user-git-settings.js';

/**
 * The environment for running git on the workspace at `root`: the caller's minus GIT_*, plus the
 * user's global excludes file and `safe.directory`, which git no longer reads itself.
 */
export async function prepareGitEnvironment(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  home: GitHomeDirectories,
): Promise<Record<string, string>> {
  const { top } = await findWorkTreeTop(root);
  return addGitConfigEntries(buildGitEnvironment(env, home), await readUserGitSettings(home, top));
}
