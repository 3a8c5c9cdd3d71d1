import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/agent/checkpoint/checkpoints.js';
import { writeTool } from '../../../src/agent/tools/write-tool.js';
import { snapshotTree } from '../../support/snapshot-tree.js';
import { makeToolContext, type TestToolContextOptions } from './make-tool-context.js';

let root: string;
let outside: string;

beforeEach(() => {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-write-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
});
afterEach(() => rmSync(path.dirname(root), { recursive: true, force: true }));

async function write(args: unknown, options: TestToolContextOptions = {}) {
  const context = makeToolContext(root, options);
  const result = await writeTool.run(args, context);
  return { result, body: JSON.parse(result.content) as Record<string, unknown>, context };
}

describe('write', () => {
  it('creates a file and its parent folders, with a diff in the preview and result', async () => {
    const { result, body, context } = await write({ path: 'a/b/new.txt', content: 'hi\n' });
    expect(result.ok).toBe(true);
    expect(readFileSync(path.join(root, 'a/b/new.txt'), 'utf8')).toBe('hi\n');
    expect(body).toMatchObject({ ok: true, path: 'a/b/new.txt', created: true, bytes: 3 });
    expect(body.diff).toContain('--- /dev/null\n+++ b/a/b/new.txt\n@@ -0,0 +1,1 @@\n+hi');
    expect(context.approvals[0]?.action).toEqual({
      kind: 'write',
      tool: 'write',
      path: 'a/b/new.txt',
    });
    expect(context.approvals[0]?.preview).toBe(body.diff);
    expect(context.checkpointCalls).toEqual([`file:${path.join(root, 'a/b/new.txt')}`]);
  });

  it('overwrites a file and shows what changed', async () => {
    writeFileSync(path.join(root, 'f.txt'), 'one\ntwo\n');
    const { body } = await write({ path: 'f.txt', content: 'one\n2\n' });
    expect(body).toMatchObject({ ok: true, created: false, bytes: 6 });
    expect(body.diff).toContain('@@ -1,2 +1,2 @@\n one\n-two\n+2');
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('one\n2\n');
  });

  it('names a binary file it replaces instead of diffing its bytes', async () => {
    writeFileSync(path.join(root, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
    const { body } = await write({ path: 'blob.bin', content: 'text\n' });
    expect(body.diff).toContain('was a binary file of 4 bytes');
    expect(readFileSync(path.join(root, 'blob.bin'), 'utf8')).toBe('text\n');
  });

  it('accepts an absolute path inside the workspace', async () => {
    const { body } = await write({ path: path.join(root, 'abs.txt'), content: 'x' });
    expect(body).toMatchObject({ ok: true, path: 'abs.txt' });
  });

  it.each([
    ['outside the workspace', () => '../outside/x.txt', 'outside-workspace'],
    ['an absolute path outside', () => path.join(outside, 'x.txt'), 'outside-workspace'],
    ['.git/', () => '.git/hooks/pre-commit', 'protected-path'],
    ['.oy/', () => '.oy/config.json', 'protected-path'],
    ['.GIT in capitals', () => '.GIT/config', 'protected-path'],
    ['a folder', () => 'dir', 'invalid-path'],
    ['the workspace itself', () => '.', 'invalid-path'],
    ['a NUL byte', () => 'a\0b', 'invalid-path'],
  ])('refuses %s, naming the rule', async (_name, requested, rule) => {
    mkdirSync(path.join(root, 'dir'));
    const before = snapshotTree(path.dirname(root));
    const { result, body, context } = await write({ path: requested(), content: 'x' });
    expect(result.ok).toBe(false);
    expect(body.error).toContain(`[${rule}]`);
    expect(context.approvals).toEqual([]);
    expect(snapshotTree(path.dirname(root))).toEqual(before);
  });

  it('refuses to write through a symbolic link, even one that stays inside', async () => {
    writeFileSync(path.join(root, 'real.txt'), 'real\n');
    symlinkSync('real.txt', path.join(root, 'link.txt'));
    const { body } = await write({ path: 'link.txt', content: 'x' });
    expect(body.error).toContain('[symlink-write]');
    expect(readFileSync(path.join(root, 'real.txt'), 'utf8')).toBe('real\n');
  });

  it('does not create the target of a dangling link outside', async () => {
    symlinkSync(path.join(outside, 'target.txt'), path.join(root, 'dangling.txt'));
    const { body } = await write({ path: 'dangling.txt', content: 'x' });
    expect(body.error).toContain('[symlink-write]');
    expect(existsSync(path.join(outside, 'target.txt'))).toBe(false);
  });

  it('is refused at execution in plan mode and leaves the disk unchanged', async () => {
    writeFileSync(path.join(root, 'f.txt'), 'before\n');
    const before = snapshotTree(root);
    const { result, body, context } = await write(
      { path: 'f.txt', content: 'after\n' },
      { mode: 'plan' },
    );
    expect(result.denied?.rule).toBe('mode:plan');
    expect(body.ok).toBe(false);
    expect(context.checkpointCalls).toEqual([]);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('is refused in ask mode when nobody can answer, and by a deny rule in auto mode', async () => {
    const asked = await write({ path: 'f.txt', content: 'x' }, { mode: 'ask' });
    expect(asked.result.denied).toBeDefined();
    const denied = await write({ path: 'src/f.txt', content: 'x' }, { deny: ['Write(src/**)'] });
    expect(denied.result.denied?.rule).toBe('Write(src/**)');
    expect(snapshotTree(root)).toEqual({});
  });

  it('refuses when the file changed between the plan (the approval preview) and the write', async () => {
    writeFileSync(path.join(root, 'f.txt'), 'v1\n');
    const context = makeToolContext(root, {
      overrides: {
        authorize: async (request) => {
          expect(await request.preparePreview?.()).toContain('-v1');
          writeFileSync(path.join(root, 'f.txt'), 'v2 by someone else\n');
          return { allowed: true };
        },
      },
    });
    const result = await writeTool.run({ path: 'f.txt', content: 'mine\n' }, context);
    expect(JSON.parse(result.content).error).toContain('changed after the change was planned');
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('v2 by someone else\n');
  });

  it('rejects missing arguments', async () => {
    const { body } = await write({ path: 'x.txt' });
    expect(body.error).toContain('invalid arguments: content');
  });

  it('is undone by the checkpoints: an overwrite gets its bytes back, a new file goes', async () => {
    writeFileSync(path.join(root, 'f.txt'), 'original\n');
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    checkpoints.beginTurn(1);
    const context = makeToolContext(root, { overrides: { checkpoints } });
    await writeTool.run({ path: 'f.txt', content: 'changed\n' }, context);
    await writeTool.run({ path: 'deep/er/new.txt', content: 'new\n' }, context);
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('changed\n');
    const undone = await checkpoints.undoLastTurn();
    expect(undone).toMatchObject({ turn: 1, restored: ['f.txt'], removed: ['deep/er/new.txt'] });
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('original\n');
    expect(existsSync(path.join(root, 'deep'))).toBe(false);
    expect(await checkpoints.undoLastTurn()).toBeUndefined();
  });
});
