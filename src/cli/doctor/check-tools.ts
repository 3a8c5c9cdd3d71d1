import os from 'node:os';
import type { DoctorCheck } from './doctor-check.js';
import { findOnPath } from '../../shared/find-on-path.js';
import { runBriefly, type BriefRun } from './run-briefly.js';
import { buildGitEnvironment } from '../../shared/git/build-git-environment.js';
import { runGit } from '../../shared/git/run-git.js';

/** What each tool is for, said when it is missing (neither is required). */
const TOOL_USES = {
  bash: 'the agent runs shell commands with bash',
  git: 'audits list files and changes through git; without it they walk the tree',
} as const;

/** `bash` and `git` on PATH, with their versions. */
export async function checkTools(env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  return Promise.all(
    (Object.keys(TOOL_USES) as Array<keyof typeof TOOL_USES>).map(
      async (name): Promise<DoctorCheck> => {
        const found = findOnPath(name, env.PATH);
        if (found === null) {
          return {
            id: name,
            status: 'warn',
            detail: 'not found on PATH',
            hint: TOOL_USES[name],
            data: { path: null },
          };
        }
        const run =
          name === 'git' ? await readGitVersion(env) : await runBriefly(found, ['--version'], env);
        const version = run.isSuccess
          ? (run.stdout.split('\n')[0] ?? '').trim()
          : `version unknown: ${run.reason}`;
        return {
          id: name,
          status: 'ok',
          detail: `${found} (${version})`,
          data: { path: found, version },
        };
      },
    ),
  );
}

/** `git --version` through oy's one git runner, from the temporary folder, never the workspace. */
async function readGitVersion(env: NodeJS.ProcessEnv): Promise<BriefRun> {
  const gitEnv = buildGitEnvironment(env, {
    homeDir: env.HOME,
    xdgConfigHome: env.XDG_CONFIG_HOME,
  });
  const run = await runGit(['--version'], { cwd: os.tmpdir(), env: gitEnv, timeoutMs: 5_000 });
  return run.ok
    ? { isSuccess: true, stdout: run.stdout.toString('utf8'), reason: '' }
    : { isSuccess: false, stdout: '', reason: run.stderr.trim() || run.reason };
}
