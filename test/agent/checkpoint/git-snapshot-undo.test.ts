import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/agent/checkpoint/checkpoints.js';
import { commitAll } from '../../support/git-fixture.js';
import { snapshotTree } from '../../support/snapshot-tree.js';

let root: string;
const at = (name: string) => path.join(root, name);
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env } });

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-git-undo-')));
  mkdirSync(at('src'));
  writeFileSync(at('src/keep.ts'), 'keep\n');
  writeFileSync(at('src/change.ts'), 'before\n');
  writeFileSync(at('src/delete.ts'), 'delete me\n');
  writeFileSync(at('run.sh'), '#!/bin/sh\n');
  chmodSync(at('run.sh'), 0o755);
  symlinkSync('src/keep.ts', at('link.ts'));
  writeFileSync(at('.gitignore'), 'ignored/\n');
  commitAll(root);
  // Untracked (not ignored) and ignored files existing before the command.
  writeFileSync(at('untracked.txt'), 'untracked before\n');
  mkdirSync(at('ignored'));
  writeFileSync(at('ignored/cache.txt'), 'cache\n');
  // A staged change the user made: undo must leave the index alone.
  writeFileSync(at('src/keep.ts'), 'keep, staged\n');
  git('add', 'src/keep.ts');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The work tree without .git, whose object store gains the snapshot objects by design. */
function workTree() {
  return Object.fromEntries(
    Object.entries(snapshotTree(root)).filter(
      ([name]) => name !== '.git' && !name.startsWith('.git/'),
    ),
  );
}

function userState() {
  return {
    index: git('ls-files', '-s'),
    head: git('rev-parse', 'HEAD'),
    stash: git('stash', 'list'),
    status: git('status', '--porcelain'),
  };
}

describe('Checkpoints (git work tree snapshot)', () => {
  it('undoes a command that modifies, deletes and creates files', async () => {
    const treeBefore = workTree();
    const stateBefore = userState();
    const checkpoints = new Checkpoints({ workspaceRoot: root, env });
    checkpoints.beginTurn(7);
    await checkpoints.beforeCommand();
    expect(userState()).toEqual(stateBefore);

    // What a command might do.
    writeFileSync(at('src/change.ts'), 'after\n');
    unlinkSync(at('src/delete.ts'));
    writeFileSync(at('src/created.ts'), 'new\n');
    mkdirSync(at('new-dir/deep'), { recursive: true });
    writeFileSync(at('new-dir/deep/file.txt'), 'new\n');
    writeFileSync(at('untracked.txt'), 'untracked after\n');
    unlinkSync(at('run.sh'));
    unlinkSync(at('link.ts'));
    writeFileSync(at('link.ts'), 'no longer a link\n');
    writeFileSync(at('ignored/new-cache.txt'), 'ignored files are not snapshotted\n');

    const undone = await checkpoints.undoLastTurn();
    expect(undone?.turn).toBe(7);
    expect(undone?.failed).toBeUndefined();
    expect(undone?.restored.sort()).toEqual(
      ['link.ts', 'run.sh', 'src/change.ts', 'src/delete.ts', 'untracked.txt'].sort(),
    );
    expect(undone?.removed.sort()).toEqual(['new-dir/deep/file.txt', 'src/created.ts']);
    expect(readFileSync(at('src/change.ts'), 'utf8')).toBe('before\n');
    expect(readFileSync(at('src/delete.ts'), 'utf8')).toBe('delete me\n');
    expect(readFileSync(at('untracked.txt'), 'utf8')).toBe('untracked before\n');
    expect(statSync(at('run.sh')).mode & 0o111).not.toBe(0);
    expect(lstatSync(at('link.ts')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(at('link.ts'))).toBe('src/keep.ts');
    expect(existsSync(at('src/created.ts'))).toBe(false);
    // Ignored files are outside the snapshot: left as they are.
    rmSync(at('ignored/new-cache.txt'));
    rmSync(at('new-dir'), { recursive: true });
    expect(workTree()).toEqual(treeBefore);
    expect(userState()).toEqual(stateBefore);
  });

  it('undoes file tools and a command in one turn back to the state before the turn', async () => {
    const treeBefore = workTree();
    const checkpoints = new Checkpoints({ workspaceRoot: root, env });
    checkpoints.beginTurn(1);
    await checkpoints.beforeFileChange(at('src/change.ts'));
    writeFileSync(at('src/change.ts'), 'by write\n');
    await checkpoints.beforeCommand();
    writeFileSync(at('src/change.ts'), 'by command\n');
    writeFileSync(at('src/keep.ts'), 'by command\n');
    await checkpoints.beforeFileChange(at('src/keep.ts'));
    writeFileSync(at('src/keep.ts'), 'by edit after the command\n');
    await checkpoints.beforeCommand();
    writeFileSync(at('src/second-command.ts'), 'x\n');
    await checkpoints.undoLastTurn();
    expect(workTree()).toEqual(treeBefore);
  });

  it('works when the workspace is a folder inside the work tree, and stays inside it', async () => {
    const workspace = at('src');
    const checkpoints = new Checkpoints({ workspaceRoot: workspace, env });
    await checkpoints.beforeCommand();
    writeFileSync(at('src/change.ts'), 'after\n');
    writeFileSync(at('src/created.ts'), 'new\n');
    writeFileSync(at('outside-workspace.txt'), 'not ours to undo\n');
    const undone = await checkpoints.undoLastTurn();
    expect(undone).toMatchObject({ restored: ['change.ts'], removed: ['created.ts'] });
    expect(readFileSync(at('src/change.ts'), 'utf8')).toBe('before\n');
    expect(existsSync(at('outside-workspace.txt'))).toBe(true);
  });

  it('never runs repository hooks while snapshotting', async () => {
    const marker = at('hook-ran');
    for (const hook of ['post-index-change', 'pre-commit', 'post-checkout']) {
      writeFileSync(at(`.git/hooks/${hook}`), `#!/bin/sh\ntouch ${marker}\n`);
      chmodSync(at(`.git/hooks/${hook}`), 0o755);
    }
    const checkpoints = new Checkpoints({ workspaceRoot: root, env });
    await checkpoints.beforeCommand();
    writeFileSync(at('src/change.ts'), 'after\n');
    await checkpoints.undoLastTurn();
    expect(existsSync(marker)).toBe(false);
  });
});
