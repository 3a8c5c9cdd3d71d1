import { buildGitEnvironment } from '../../shared/git/build-git-environment.js';
import { runGit } from '../../shared/git/run-git.js';

export interface GitState {
  commit: string | null;
  /** null outside a git work tree. */
  isDirty: boolean | null;
}

/** The commit and dirty flag for the report's Method section, asked of git run hardened. */
export async function readGitState(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<GitState> {
  const gitEnv = buildGitEnvironment(env, {
    homeDir: env.HOME,
    xdgConfigHome: env.XDG_CONFIG_HOME,
  });
  const git = (args: string[]) => runGit(args, { cwd: root, env: gitEnv });
  const inside = await git(['rev-parse', '--is-inside-work-tree']);
  if (!inside.ok || inside.stdout.toString().trim() !== 'true')
    return { commit: null, isDirty: null };
  const head = await git(['rev-parse', '--verify', '-q', 'HEAD']);
  const status = await git(['status', '--porcelain', '-z', '--untracked-files=normal']);
  return {
    commit: head.ok ? head.stdout.toString().trim() || null : null,
    isDirty: status.ok ? status.stdout.length > 0 : null,
  };
}
