/** Where git finds the user's global config, which decides its global excludes file. */
export interface GitHomeDirectories {
  homeDir?: string | undefined;
  xdgConfigHome?: string | undefined;
}

/**
 * The environment git runs with: the caller's, minus every GIT_* variable (which could point git
 * at another repository or config) and the askpass variables. `runGit` adds the hardening
 * variables on top; HOME stays because git finds the default global excludes file through it.
 */
export function buildGitEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  home: GitHomeDirectories,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !name.startsWith('GIT_')) result[name] = value;
  }
  delete result.HOME;
  delete result.XDG_CONFIG_HOME;
  delete result.SSH_ASKPASS;
  if (home.homeDir !== undefined) result.HOME = home.homeDir;
  if (home.xdgConfigHome !== undefined) result.XDG_CONFIG_HOME = home.xdgConfigHome;
  result.LC_ALL = 'C';
  return result;
}
