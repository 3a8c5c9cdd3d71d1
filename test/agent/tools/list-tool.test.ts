import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listTool } from '../../../src/agent/tools/list-tool.js';
import { makeToolContext } from './make-tool-context.js';

let sandbox: string;
let root: string;

beforeEach(() => {
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-list-')));
  root = path.join(sandbox, 'ws');
  mkdirSync(root);
});
afterEach(() => rmSync(sandbox, { recursive: true, force: true }));

function write(relative: string, content = 'x\n'): void {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), content);
}

async function list(args: Record<string, unknown> = {}) {
  const result = await listTool.run(args, makeToolContext(root));
  return { ...result, body: JSON.parse(result.content) as Record<string, unknown> };
}

describe('list tool', () => {
  it('lists two levels by default, sorted, folders marked with /', async () => {
    write('b.txt');
    write('a/one.ts');
    write('a/deep/two.ts');
    write('a/deep/deeper/three.ts');
    const { ok, body } = await list();
    expect(ok).toBe(true);
    expect(body).toEqual({
      ok: true,
      path: '.',
      entries: ['a/', 'a/deep/', 'a/one.ts', 'b.txt'],
      count: 4,
      truncated: false,
    });
  });

  it('honours depth and a subfolder path', async () => {
    write('a/deep/deeper/three.ts');
    write('a/one.ts');
    expect((await list({ depth: 1 })).body.entries).toEqual(['a/']);
    expect((await list({ path: 'a', depth: 5 })).body).toMatchObject({
      path: 'a',
      entries: ['a/deep/', 'a/deep/deeper/', 'a/deep/deeper/three.ts', 'a/one.ts'],
    });
  });

  it('honours the root and nested .gitignore files and never shows .git', async () => {
    write('.gitignore', 'dist/\n*.log\n');
    write('dist/bundle.js');
    write('keep.ts');
    write('debug.log');
    write('pkg/.gitignore', 'generated.ts\n!important.log\n');
    write('pkg/generated.ts');
    write('pkg/important.log');
    write('pkg/source.ts');
    mkdirSync(path.join(root, '.git', 'objects'), { recursive: true });
    writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
    const { body } = await list({ depth: 3 });
    expect(body.entries).toEqual([
      '.gitignore',
      'keep.ts',
      'pkg/',
      'pkg/.gitignore',
      'pkg/important.log',
      'pkg/source.ts',
    ]);
  });

  it('applies the .gitignore files above a listed subfolder', async () => {
    write('.gitignore', 'secret-build/\n');
    write('pkg/secret-build/out.js');
    write('pkg/src/a.ts');
    expect((await list({ path: 'pkg', depth: 3 })).body.entries).toEqual([
      'pkg/src/',
      'pkg/src/a.ts',
    ]);
  });

  it('applies the .gitignore of an enclosing repository above the workspace', async () => {
    mkdirSync(path.join(sandbox, '.git'));
    writeFileSync(path.join(sandbox, '.gitignore'), 'ws/ignored-by-parent/\n');
    write('ignored-by-parent/x.ts');
    write('kept.ts');
    expect((await list()).body.entries).toEqual(['kept.ts']);
  });

  it('says when the limit truncated the listing', async () => {
    for (let index = 0; index < 12; index += 1) write(`f${String(index).padStart(2, '0')}.txt`);
    const { body } = await list({ limit: 5 });
    expect(body).toMatchObject({ count: 5, truncated: true });
    expect(body.entries).toEqual(['f00.txt', 'f01.txt', 'f02.txt', 'f03.txt', 'f04.txt']);
    expect(body.note).toContain('stopped at 5 entries');
  });

  it('marks symbolic links with @ and never descends into them', async () => {
    mkdirSync(path.join(sandbox, 'outside'));
    writeFileSync(path.join(sandbox, 'outside', 'canary.txt'), 'canary');
    write('real/inner.txt');
    symlinkSync(path.join(sandbox, 'outside'), path.join(root, 'out-link'));
    symlinkSync('real', path.join(root, 'in-link'));
    const { body } = await list({ depth: 5 });
    expect(body.entries).toEqual(['in-link@', 'out-link@', 'real/', 'real/inner.txt']);
  });

  it('refuses a file, a missing path, bad arguments and paths outside', async () => {
    write('file.txt');
    expect((await list({ path: 'file.txt' })).body.error).toMatch(/is a file, not a folder/);
    expect((await list({ path: 'missing' })).body.error).toMatch(/does not exist/);
    expect((await list({ depth: 0 })).body.error).toMatch(/invalid arguments: depth/);
    expect((await list({ limit: 5001 })).body.error).toMatch(/invalid arguments: limit/);
    expect((await list({ extra: 1 })).body.error).toMatch(/invalid arguments/);
    const outside = await list({ path: '..' });
    expect(outside.ok).toBe(false);
    expect(outside.body.error).toContain('[outside-workspace]');
  });

  it('asks the policy with the resolved relative path', async () => {
    write('a/b.txt');
    const context = makeToolContext(root);
    await listTool.run({ path: './a/' }, context);
    expect(context.approvals.map((request) => request.action)).toEqual([
      { kind: 'read', tool: 'list', path: 'a' },
    ]);
  });
});
