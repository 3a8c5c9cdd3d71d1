import {
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  readFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';
import { snapshotTree } from '../support/snapshot-tree.js';

/** The path-escape matrix for `--out` and `--manifest`, checked on disk against a canary outside the workspace. */
let sandbox: string;
let workspace: string;
let outside: string;

beforeAll(() => {
  sandbox = mkdtempSync(path.join(tmpdir(), 'oy-escape-'));
  workspace = path.join(sandbox, 'ws');
  outside = path.join(sandbox, 'outside');
  mkdirSync(path.join(workspace, 'sub', 'deep'), { recursive: true });
  mkdirSync(path.join(workspace, '.git'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'canary.txt'), 'canary\n');
  writeFileSync(path.join(workspace, 'app.js'), 'console.log("hi");\n');
  writeFileSync(path.join(workspace, 'inside-target.md'), 'keep\n');
  symlinkSync(outside, path.join(workspace, 'linkdir'));
  symlinkSync(path.join(outside, 'canary.txt'), path.join(workspace, 'link-to-outside.md'));
  symlinkSync(path.join(workspace, 'inside-target.md'), path.join(workspace, 'link-inside.md'));
  symlinkSync(path.join(outside, 'not-yet.md'), path.join(workspace, 'dangling.md'));
  symlinkSync(path.join(outside, 'no-such-dir'), path.join(workspace, 'danglingdir'));
  symlinkSync('loop', path.join(workspace, 'loop'));
  symlinkSync('../..', path.join(workspace, 'sub', 'linkup'));
  symlinkSync('../../outside', path.join(workspace, 'sub', 'deep', 'relative-out'));
});

afterAll(() => undefined);

const refused: [string, () => string][] = [
  ['one .. step', () => '../escape.md'],
  ['two .. steps', () => '../../escape.md'],
  ['.. through a real subdirectory', () => 'sub/../../escape.md'],
  ['.. hidden deep in the middle', () => 'sub/deep/../../../outside/x.md'],
  ['an absolute path outside', () => path.join(outside, 'abs.md')],
  ['an absolute path in /tmp', () => path.join(tmpdir(), `oy-escape-${process.pid}.md`)],
  ['a symlinked ancestor leading outside', () => 'linkdir/x.md'],
  ['a symlinked ancestor of a not-yet-existing path', () => 'linkdir/new/deeper/x.md'],
  ['an existing symlink to a file outside', () => 'link-to-outside.md'],
  ['an existing symlink to a file inside', () => 'link-inside.md'],
  ['a dangling symlink', () => 'dangling.md'],
  ['a dangling symlinked directory', () => 'danglingdir/x.md'],
  ['a symlink loop', () => 'loop/x.md'],
  ['a relative symlink climbing out', () => 'sub/linkup/escape.md'],
  ['a nested relative symlink to outside', () => 'sub/deep/relative-out/x.md'],
  ['into .git', () => '.git/hooks/pre-commit'],
  ['into .oy', () => '.oy/report.md'],
  ['the workspace itself', () => '.'],
  ['an existing directory', () => 'sub'],
  ['an empty path', () => ''],
  ['a very long path', () => 'a'.repeat(5000) + '.md'],
];

describe.each(['--out', '--manifest'])('%s path escape matrix', (flag) => {
  it.each(refused)('refuses %s, writing nothing anywhere', async (_name, target) => {
    const before = snapshotTree(sandbox);
    const args = ['audit', '--offline', '--quiet', flag, target()];
    if (flag === '--manifest') args.push('--out', 'report.md');
    const result = await runOy(args, { cwd: workspace });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(snapshotTree(sandbox)).toEqual(before);
    expect(readFileSync(path.join(outside, 'canary.txt'), 'utf8')).toBe('canary\n');
  });

  it.each([
    ['URL-encoded dots, a plain name inside', '%2e%2e/x.md'],
    ['Windows separators, a plain name on POSIX', '..\\..\\x.md'],
    ['a new nested directory', 'reports/deep/out.md'],
  ])('accepts %s and writes only inside the workspace', async (_name, target) => {
    const outsideBefore = snapshotTree(outside);
    const args = ['audit', '--offline', '--quiet', flag, target];
    if (flag === '--manifest') args.push('--out', 'report.md');
    const result = await runOy(args, { cwd: workspace });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(path.join(workspace, target))).toBe(true);
    expect(snapshotTree(outside)).toEqual(outsideBefore);
  });
});

describe('oy run --out path escape matrix', () => {
  let fake: FakeProviderServer;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(async () => {
    await fake.close();
  });

  it.each(refused)('refuses %s before any model call, writing nothing', async (_name, target) => {
    const before = snapshotTree(sandbox);
    const result = await runOy(
      ['run', '--model', 'anthropic::claude-haiku-4-5', '--no-session', '--out', target(), 'hi'],
      { cwd: workspace, env: fakeProviderEnv(fake) },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(fake.modelCalls).toHaveLength(0);
    expect(snapshotTree(sandbox)).toEqual(before);
    expect(readFileSync(path.join(outside, 'canary.txt'), 'utf8')).toBe('canary\n');
  });
});
