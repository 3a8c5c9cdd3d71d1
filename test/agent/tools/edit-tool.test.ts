import {
  chmodSync,
  mkdirSync,
  statSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/agent/checkpoint/checkpoints.js';
import { editTool } from '../../../src/agent/tools/edit-tool.js';
import { snapshotTree } from '../../support/snapshot-tree.js';
import { makeToolContext, type TestToolContextOptions } from './make-tool-context.js';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-edit-')));
  writeFileSync(path.join(root, 'f.ts'), 'const a = 1;\nconst b = 1;\nconst c = 2;\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function edit(args: Record<string, unknown>, options: TestToolContextOptions = {}) {
  const context = makeToolContext(root, options);
  const result = await editTool.run(args, context);
  return { result, body: JSON.parse(result.content) as Record<string, unknown>, context };
}

const read = (name: string) => readFileSync(path.join(root, name), 'utf8');

describe('edit', () => {
  it('replaces a unique string and returns a diff with a hunk', async () => {
    const { body, context } = await edit({
      path: 'f.ts',
      old_string: 'const c = 2;',
      new_string: 'const c = 3;',
    });
    expect(body).toMatchObject({ ok: true, path: 'f.ts', replacements: 1 });
    expect(body.diff).toContain('@@ -1,3 +1,3 @@');
    expect(body.diff).toContain('-const c = 2;\n+const c = 3;');
    expect(read('f.ts')).toBe('const a = 1;\nconst b = 1;\nconst c = 3;\n');
    expect(context.approvals[0]?.action).toEqual({ kind: 'write', tool: 'edit', path: 'f.ts' });
    expect(context.approvals[0]?.preview).toBe(body.diff);
    expect(context.checkpointCalls).toEqual([`file:${path.join(root, 'f.ts')}`]);
  });

  it('replaces every occurrence with replace_all', async () => {
    const { body } = await edit({
      path: 'f.ts',
      old_string: '= 1',
      new_string: '= 10',
      replace_all: true,
    });
    expect(body).toMatchObject({ ok: true, replacements: 2 });
    expect(read('f.ts')).toBe('const a = 10;\nconst b = 10;\nconst c = 2;\n');
  });

  it('inserts the new text literally ($& and $1 are not patterns)', async () => {
    await edit({ path: 'f.ts', old_string: 'const c = 2;', new_string: "s.replace('$&', '$1')" });
    expect(read('f.ts')).toContain("s.replace('$&', '$1')");
  });

  it('says how many times a non-unique string occurs and what to do', async () => {
    const { body } = await edit({ path: 'f.ts', old_string: '= 1;', new_string: '= 5;' });
    expect(body.error).toContain('occurs 2 times');
    expect(body.error).toContain('replace_all');
    expect(read('f.ts')).toContain('const a = 1;');
  });

  it.each([
    [{ old_string: 'nope', new_string: 'x' }, 'was not found'],
    [{ old_string: '', new_string: 'x' }, 'old_string is empty'],
    [{ old_string: 'const a', new_string: 'const a' }, 'are the same'],
  ])('fails for %o', async (args, message) => {
    const before = snapshotTree(root);
    const { result, body } = await edit({ path: 'f.ts', ...args });
    expect(result.ok).toBe(false);
    expect(body.error).toContain(message);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('fails for a missing file, a binary file and a folder', async () => {
    writeFileSync(path.join(root, 'b.bin'), Buffer.from([104, 0, 105]));
    mkdirSync(path.join(root, 'dir'));
    const missing = await edit({ path: 'none.ts', old_string: 'a', new_string: 'b' });
    expect(missing.body.error).toContain('does not exist; use write');
    const binary = await edit({ path: 'b.bin', old_string: 'h', new_string: 'x' });
    expect(binary.body.error).toContain('not a UTF-8 text file');
    const folder = await edit({ path: 'dir', old_string: 'a', new_string: 'b' });
    expect(folder.body.error).toContain('[invalid-path]');
  });

  it('refuses paths outside, through links and into .git/.oy, naming the rule', async () => {
    mkdirSync(path.join(root, '.git'));
    writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
    symlinkSync('f.ts', path.join(root, 'link.ts'));
    const before = snapshotTree(root);
    for (const [requested, rule] of [
      ['../x.ts', 'outside-workspace'],
      ['link.ts', 'symlink-write'],
      ['.git/config', 'protected-path'],
      ['.Oy/config.json', 'protected-path'],
    ] as const) {
      const { body } = await edit({ path: requested, old_string: 'c', new_string: 'd' });
      expect(body.error).toContain(`[${rule}]`);
    }
    expect(snapshotTree(root)).toEqual(before);
  });

  it('is refused in plan mode at execution and changes nothing', async () => {
    const before = snapshotTree(root);
    const { result, context } = await edit(
      { path: 'f.ts', old_string: 'const c = 2;', new_string: 'x' },
      { mode: 'plan' },
    );
    expect(result.denied?.rule).toBe('mode:plan');
    expect(context.checkpointCalls).toEqual([]);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('keeps the file mode and is undone by the checkpoints', async () => {
    chmodSync(path.join(root, 'f.ts'), 0o750);
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    checkpoints.beginTurn(3);
    const context = makeToolContext(root, { overrides: { checkpoints } });
    await editTool.run({ path: 'f.ts', old_string: 'const c = 2;', new_string: 'x' }, context);
    await editTool.run({ path: 'f.ts', old_string: 'const a = 1;', new_string: 'y' }, context);
    expect(read('f.ts')).toBe('y\nconst b = 1;\nx\n');
    expect(await checkpoints.undoLastTurn()).toMatchObject({ turn: 3, restored: ['f.ts'] });
    expect(read('f.ts')).toBe('const a = 1;\nconst b = 1;\nconst c = 2;\n');
    expect(statSync(path.join(root, 'f.ts')).mode & 0o777).toBe(0o750);
  });
});
