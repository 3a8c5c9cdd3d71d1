import {
  mkdirSync,
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
import { MAX_REPLACE_FILES, replaceTool } from '../../../src/agent/tools/replace-tool.js';
import { REPLACE_TIME_BUDGET_MS } from '../../../src/agent/tools/write/compile-replacement.js';
import { snapshotTree } from '../../support/snapshot-tree.js';
import { makeToolContext, type TestToolContextOptions } from './make-tool-context.js';

let base: string;
let root: string;

function put(name: string, content: string | Buffer): void {
  const full = path.join(root, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
}
const read = (name: string) => readFileSync(path.join(root, name), 'utf8');

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'oy-replace-')));
  root = path.join(base, 'ws');
  mkdirSync(root);
  put('src/a.ts', 'import { oldName } from "./b";\noldName();\n');
  put('src/b.ts', 'export function oldName() {}\n');
  put('docs/readme.md', 'Call oldName to start.\n');
  put('.gitignore', 'build/\n');
  put('build/out.js', 'oldName();\n');
  put('.env', 'OLDNAME=oldName\n');
  put('bin/blob.bin', Buffer.from('oldName\0binary'));
  put('.oy/config.json', '{"oldName": true}\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

async function replace(args: Record<string, unknown>, options: TestToolContextOptions = {}) {
  const context = makeToolContext(root, options);
  const result = await replaceTool.run(args, context);
  return { result, body: JSON.parse(result.content) as Record<string, unknown>, context };
}

describe('replace', () => {
  it('changes every matching file, honouring .gitignore and skipping secrets, binaries and .oy', async () => {
    const { body, context } = await replace({ pattern: 'oldName', replacement: 'newName' });
    expect(body).toMatchObject({
      ok: true,
      mode: 'regex',
      files: [
        { path: 'docs/readme.md', replacements: 1 },
        { path: 'src/a.ts', replacements: 2 },
        { path: 'src/b.ts', replacements: 1 },
      ],
      total_replacements: 4,
      skipped: { 'secret-bearing': 1, binary: 1 },
    });
    expect(read('src/a.ts')).toBe('import { newName } from "./b";\nnewName();\n');
    expect(read('build/out.js')).toBe('oldName();\n');
    expect(read('.env')).toBe('OLDNAME=oldName\n');
    expect(read('.oy/config.json')).toBe('{"oldName": true}\n');
    // Every file it may change, from names alone: the policy judges them before any is read.
    expect(context.approvals[0]?.action).toEqual({
      kind: 'write',
      tool: 'replace',
      path: '.',
      files: ['.gitignore', 'bin/blob.bin', 'docs/readme.md', 'src/a.ts', 'src/b.ts'],
    });
    expect(body.diff).toContain('--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@');
    expect(context.approvals[0]?.preview).toBe(body.diff);
    expect(context.checkpointCalls).toHaveLength(3);
  });

  it('uses JavaScript $1 replacements and multiline anchors in regex mode', async () => {
    const { body } = await replace({
      pattern: '^export function (\\w+)',
      replacement: 'export const $1 = function',
      path: 'src',
    });
    expect(body).toMatchObject({ ok: true, total_replacements: 1 });
    expect(read('src/b.ts')).toBe('export const oldName = function() {}\n');
  });

  it('limits the change to a folder, a single file and a glob', async () => {
    await replace({ pattern: 'oldName', replacement: 'x', path: 'docs' });
    expect(read('docs/readme.md')).toBe('Call x to start.\n');
    expect(read('src/b.ts')).toContain('oldName');
    await replace({ pattern: 'oldName', replacement: 'y', path: 'src/b.ts' });
    expect(read('src/b.ts')).toContain('function y()');
    expect(read('src/a.ts')).toContain('oldName');
    const { body } = await replace({ pattern: 'oldName', replacement: 'z', glob: '*.ts' });
    expect(body.files).toEqual([{ path: 'src/a.ts', replacements: 2 }]);
  });

  it('in literal mode matches regex characters as text and inserts $1 as is', async () => {
    put('src/c.ts', 'a.b(); axb();\n');
    const { body } = await replace({
      pattern: 'a.b',
      replacement: '$1',
      mode: 'literal',
      path: 'src/c.ts',
    });
    expect(body).toMatchObject({ mode: 'literal', total_replacements: 1 });
    expect(read('src/c.ts')).toBe('$1(); axb();\n');
  });

  it('falls back to literal for an invalid regex without a mode, and fails with mode regex', async () => {
    put('src/c.ts', 'call(x\n');
    const fallback = await replace({ pattern: 'call(', replacement: 'run(', path: 'src' });
    expect(fallback.body).toMatchObject({ ok: true, mode: 'literal' });
    expect(read('src/c.ts')).toBe('run(x\n');
    const strict = await replace({ pattern: 'run(', replacement: 'x', mode: 'regex' });
    expect(strict.body.error).toContain('not a valid regular expression');
  });

  it.each([
    [{ pattern: '', replacement: 'x' }, 'pattern is empty'],
    [{ pattern: 'x*', replacement: 'y' }, 'matches empty text'],
    [{ pattern: 'notThere', replacement: 'y' }, 'no match for the pattern'],
    [{ pattern: 'oldName', replacement: 'y', path: 'missing' }, 'does not exist'],
    [{ pattern: 'oldName', replacement: 'y', path: '../' }, '[outside-workspace]'],
    [{ pattern: 'oldName', replacement: 'y', path: 'build/out.js', glob: '*.md' }, 'no match'],
  ])('fails for %o and changes nothing', async (args, message) => {
    const before = snapshotTree(base);
    const { result, body } = await replace(args);
    expect(result.ok).toBe(false);
    expect(body.error).toContain(message);
    expect(snapshotTree(base)).toEqual(before);
  });

  it(`refuses more than ${MAX_REPLACE_FILES} changed files and says so`, async () => {
    for (let i = 0; i <= MAX_REPLACE_FILES; i++) put(`many/f${i}.txt`, 'token\n');
    const before = snapshotTree(root);
    const { body } = await replace({ pattern: 'token', replacement: 'x', path: 'many' });
    expect(body.error).toContain(`matches in ${MAX_REPLACE_FILES + 1} files`);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('never follows links: neither a linked file nor a linked folder is changed', async () => {
    const outside = path.join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'victim.ts'), 'oldName\n');
    symlinkSync(outside, path.join(root, 'src', 'linked-dir'));
    symlinkSync(path.join(outside, 'victim.ts'), path.join(root, 'src', 'linked.ts'));
    const { body } = await replace({ pattern: 'oldName', replacement: 'x', path: 'src' });
    expect(body.files).toEqual([
      { path: 'src/a.ts', replacements: 2 },
      { path: 'src/b.ts', replacements: 1 },
    ]);
    expect(readFileSync(path.join(outside, 'victim.ts'), 'utf8')).toBe('oldName\n');
  });

  it('is refused in plan mode at execution, and a deny rule on one file refuses the whole call', async () => {
    const before = snapshotTree(root);
    const plan = await replace({ pattern: 'oldName', replacement: 'x' }, { mode: 'plan' });
    expect(plan.result.denied?.rule).toBe('mode:plan');
    const denied = await replace(
      { pattern: 'oldName', replacement: 'x' },
      { deny: ['Edit(docs/**)'] },
    );
    expect(denied.result.denied?.rule).toBe('Edit(docs/**)');
    expect(plan.context.checkpointCalls).toEqual([]);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('is undone by the checkpoints', async () => {
    const before = snapshotTree(root);
    const checkpoints = new Checkpoints({ workspaceRoot: root });
    checkpoints.beginTurn(2);
    const context = makeToolContext(root, { overrides: { checkpoints } });
    await replaceTool.run({ pattern: 'oldName', replacement: 'x' }, context);
    expect(snapshotTree(root)).not.toEqual(before);
    const undone = await checkpoints.undoLastTurn();
    expect(undone?.restored.sort()).toEqual(['docs/readme.md', 'src/a.ts', 'src/b.ts']);
    expect(snapshotTree(root)).toEqual(before);
  });

  it('stops a catastrophically backtracking regex instead of hanging, and changes nothing', async () => {
    put('evil.txt', `${'a'.repeat(40)}!\n`);
    const before = snapshotTree(root);
    const context = makeToolContext(root);
    // A clock that jumps near the end of the budget after compiling leaves the worker 50 ms.
    let calls = 0;
    context.now = () => (calls++ === 0 ? 0 : REPLACE_TIME_BUDGET_MS - 50);
    const result = await replaceTool.run(
      { pattern: '^(a+)+$', replacement: 'x', path: 'evil.txt' },
      context,
    );
    expect(result.ok).toBe(false);
    expect(JSON.parse(result.content).error).toMatch(/backtrack/);
    expect(snapshotTree(root)).toEqual(before);
  });
});
