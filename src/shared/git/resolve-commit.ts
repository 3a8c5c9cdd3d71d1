import { runGit } from './run-git.js';

/**
 * The commit id a user-given ref names, or null. A ref that git could read as an option, or that
 * holds a NUL, names nothing.
 */
export async function resolveCommit(
  cwd: string,
  env: Record<string, string>,
  ref: string,
): Promise<string | null> {
  if (ref === '' || ref.startsWith('-') || ref.includes('\0')) return null;
  const resolved = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
    cwd,
    env,
  });
  return resolved.ok ? resolved.stdout.toString('utf8').trim() : null;
}
