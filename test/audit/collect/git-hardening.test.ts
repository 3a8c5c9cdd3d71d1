import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  candidatePaths,
  collect,
  git,
  gitInit,
  makeTempDir,
  removeDir,
  writeTree,
} from './tree-helpers.js';
import { commitAll } from '../../support/git-fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** A repository plus, outside it, a script that creates a canary file when anything runs it. */
function makeTrappedRepo(): { root: string; script: string; canary: string } {
  const outside = makeTempDir();
  const root = makeTempDir();
  dirs.push(outside, root);
  const canary = path.join(outside, 'canary');
  const script = path.join(outside, 'trap.sh');
  // Also passes its input through, so it works as a clean filter.
  writeFileSync(script, `#!/bin/sh\ntouch '${canary}'\ncat\n`);
  chmodSync(script, 0o755);
  writeTree(root, { 'a.ts': 'export const a = 1;\n', 'b.ts': 'b' });
  gitInit(root);
  commitAll(root);
  return { root, script, canary };
}

describe('a repository cannot run code through the collector', () => {
  it('ignores core.fsmonitor from the repository config', async () => {
    const { root, script, canary } = makeTrappedRepo();
    git(root, 'config', 'core.fsmonitor', script);
    // Control: plain git does run it, so the trap is real.
    git(root, 'ls-files', '--others', '--exclude-standard');
    expect(existsSync(canary)).toBe(true);
    rmSync(canary);

    const result = await collect(root);
    expect(result.isGitRepo).toBe(true);
    expect(candidatePaths(result)).toEqual(['a.ts', 'b.ts']);
    const diffed = await collect(root, { diffRef: 'HEAD' });
    expect(diffed.isGitRepo).toBe(true);
    expect(existsSync(canary)).toBe(false);
  });

  it('runs no clean filter from the repository config under --diff', async () => {
    const { root, script, canary } = makeTrappedRepo();
    git(root, 'config', 'filter.trap.clean', script);
    git(root, 'config', 'filter.trap.required', 'true');
    writeFileSync(path.join(root, '.gitattributes'), '* filter=trap\n');
    writeFileSync(path.join(root, 'a.ts'), 'export const a = 2;\n');
    // Control: comparing the work tree through plain git runs the filter.
    git(root, 'diff', '--name-only', 'HEAD');
    expect(existsSync(canary)).toBe(true);
    rmSync(canary);

    const result = await collect(root, { diffRef: 'HEAD' });
    expect(existsSync(canary)).toBe(false);
    expect(candidatePaths(result)).toEqual(['.gitattributes', 'a.ts']);
  });

  it('ignores GIT_DIR and GIT_WORK_TREE from the caller environment', async () => {
    const { root } = makeTrappedRepo();
    writeFileSync(path.join(root, 'a.ts'), 'changed');
    const other = makeTempDir();
    dirs.push(other);
    gitInit(other);
    const result = await collect(root, {
      diffRef: 'HEAD',
      env: { ...process.env, GIT_DIR: path.join(other, '.git'), GIT_WORK_TREE: other },
    });
    expect(result.isGitRepo).toBe(true);
    expect(candidatePaths(result)).toEqual(['a.ts']);
  });
});
