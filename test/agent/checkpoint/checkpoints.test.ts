import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/agent/checkpoint/checkpoints.js';
import { SPILL_AT_BYTES } from '../../../src/agent/checkpoint/saved-file.js';
import { snapshotTree } from '../../support/snapshot-tree.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-checkpoints-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const at = (name: string) => path.join(root, name);

describe('Checkpoints (files)', () => {
  it('has nothing to undo before any change', async () => {
    expect(await new Checkpoints({ workspaceRoot: root }).undoLastTurn()).toBeUndefined();
  });

  it('keeps the first state of a file in a turn and undoes one turn at a time', async () => {
    writeFileSync(at('f.txt'), 'v0');
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    checkpoints.beginTurn(1);
    await checkpoints.beforeFileChange(at('f.txt'));
    writeFileSync(at('f.txt'), 'v1');
    await checkpoints.beforeFileChange(at('f.txt'));
    writeFileSync(at('f.txt'), 'v1b');
    checkpoints.beginTurn(2);
    checkpoints.beginTurn(3); // a turn with no change is skipped by undo
    await checkpoints.beforeFileChange(at('f.txt'));
    writeFileSync(at('f.txt'), 'v2');
    expect(await checkpoints.undoLastTurn()).toEqual({ turn: 3, restored: ['f.txt'], removed: [] });
    expect(readFileSync(at('f.txt'), 'utf8')).toBe('v1b');
    expect(await checkpoints.undoLastTurn()).toEqual({ turn: 1, restored: ['f.txt'], removed: [] });
    expect(readFileSync(at('f.txt'), 'utf8')).toBe('v0');
    expect(await checkpoints.undoLastTurn()).toBeUndefined();
  });

  it('removes a created file and the folders created for it, but not folders that existed', async () => {
    mkdirSync(at('kept'));
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    await checkpoints.beforeFileChange(at('kept/new/deeper/x.txt'));
    mkdirSync(at('kept/new/deeper'), { recursive: true });
    writeFileSync(at('kept/new/deeper/x.txt'), 'x');
    expect(await checkpoints.undoLastTurn()).toMatchObject({ removed: ['kept/new/deeper/x.txt'] });
    expect(readdirSync(at('kept'))).toEqual([]);
  });

  it('spills a large file to a private folder and restores it byte for byte', async () => {
    const big = Buffer.alloc(SPILL_AT_BYTES * 2 + 3, 7);
    writeFileSync(at('big.bin'), big);
    const spillFolders = () =>
      new Set(readdirSync(os.tmpdir()).filter((n) => n.startsWith('oy-checkpoint-')));
    const existing = spillFolders();
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    await checkpoints.beforeFileChange(at('big.bin'));
    const mine = [...spillFolders()].filter((n) => !existing.has(n));
    expect(mine).toHaveLength(1);
    const folder = path.join(os.tmpdir(), mine[0] ?? '');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const [copy] = readdirSync(folder);
    expect(statSync(path.join(folder, copy ?? '')).mode & 0o777).toBe(0o600);
    writeFileSync(at('big.bin'), 'small now');
    await checkpoints.undoLastTurn();
    expect(readFileSync(at('big.bin')).equals(big)).toBe(true);
    expect(existsSync(folder)).toBe(false);
  });

  it('refuses a path outside the workspace', async () => {
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    await expect(checkpoints.beforeFileChange(path.dirname(root))).rejects.toThrow(/outside/u);
  });

  it('says a command outside git cannot be undone, and still restores the files', async () => {
    writeFileSync(at('f.txt'), 'v0');
    const checkpoints = new Checkpoints({ workspaceRoot: root, env: { PATH: process.env.PATH } });
    checkpoints.beginTurn(4);
    await checkpoints.beforeFileChange(at('f.txt'));
    writeFileSync(at('f.txt'), 'v1');
    await checkpoints.beforeCommand();
    writeFileSync(at('made-by-command.txt'), 'x');
    const undone = await checkpoints.undoLastTurn();
    expect(undone).toMatchObject({ turn: 4, restored: ['f.txt'] });
    expect(undone?.unrestorable).toContain('outside a git work tree');
    expect(readFileSync(at('f.txt'), 'utf8')).toBe('v0');
    expect(existsSync(at('made-by-command.txt'))).toBe(true);
  });

  it('a turn that only ran a command outside git is still the one undone, saying so', async () => {
    const before = snapshotTree(root);
    const checkpoints = new Checkpoints({ workspaceRoot: root, env: { PATH: process.env.PATH } });
    await checkpoints.beforeCommand();
    expect(await checkpoints.undoLastTurn()).toMatchObject({ restored: [], removed: [] });
    expect(snapshotTree(root)).toEqual(before);
  });
});
