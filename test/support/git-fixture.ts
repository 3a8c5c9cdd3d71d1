import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Makes `dir` a git repository with everything in it committed, as a user's checkout would be. */
export function commitAll(dir: string, message = 'fixture'): void {
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=oy-test',
        '-c',
        'user.email=oy@test.invalid',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      {
        cwd: dir,
        stdio: 'ignore',
      },
    );
  if (!existsSync(path.join(dir, '.git'))) git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', message);
}
