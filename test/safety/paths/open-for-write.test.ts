import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openForWrite } from '../../../src/safety/paths/open-for-write.js';

/** The races `openForWrite` closes: a link or folder swapped in between the check and the write. */
let sandbox: string;
let workspace: string;
let outside: string;
let canary: string;

beforeEach(() => {
  sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-open-write-')));
  workspace = path.join(sandbox, 'ws');
  outside = path.join(sandbox, 'outside');
  canary = path.join(outside, 'canary.txt');
  mkdirSync(path.join(workspace, 'existing'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(canary, 'canary\n');
  writeFileSync(path.join(workspace, 'existing', 'old.txt'), 'old content that is longer\n');
});

afterEach(() => rmSync(sandbox, { recursive: true, force: true }));

describe('openForWrite', () => {
  it('refuses a hard link to a file outside, leaving that file as it was', async () => {
    linkSync(canary, path.join(workspace, 'hard.txt'));
    const opened = await openForWrite(workspace, 'hard.txt');
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.rule).toBe('hard-link-write');
    expect(readFileSync(canary, 'utf8')).toBe('canary\n');
  });

  it('creates missing folders and returns an emptied handle', async () => {
    const opened = await openForWrite(workspace, 'a/b/c/new.txt');
    if (!opened.ok) throw new Error(opened.reason);
    await opened.handle.writeFile('new\n');
    await opened.handle.close();
    expect(opened.relativePath).toBe(path.join('a', 'b', 'c', 'new.txt'));
    expect(readFileSync(path.join(workspace, 'a/b/c/new.txt'), 'utf8')).toBe('new\n');
  });

  it('empties an existing file before handing it over', async () => {
    const opened = await openForWrite(workspace, 'existing/old.txt');
    if (!opened.ok) throw new Error(opened.reason);
    await opened.handle.writeFile('short\n');
    await opened.handle.close();
    expect(readFileSync(path.join(workspace, 'existing/old.txt'), 'utf8')).toBe('short\n');
  });

  it('refuses a link planted at the file name after the check (O_NOFOLLOW)', async () => {
    const result = await openForWrite(workspace, 'existing/planted.txt', {
      beforeOpen: () => symlinkSync(canary, path.join(workspace, 'existing', 'planted.txt')),
    });
    expect(result).toMatchObject({ ok: false, rule: 'symlink-write' });
    expect(readFileSync(canary, 'utf8')).toBe('canary\n');
  });

  it('refuses when an existing folder is swapped for a link to outside after the check', async () => {
    const result = await openForWrite(workspace, 'existing/x.txt', {
      afterResolve: () => {
        renameSync(path.join(workspace, 'existing'), path.join(workspace, 'moved'));
        symlinkSync(outside, path.join(workspace, 'existing'));
      },
    });
    expect(result).toMatchObject({ ok: false, rule: 'symlink-escape' });
    expect(existsSync(path.join(outside, 'x.txt'))).toBe(false);
  });

  it('refuses when a new folder is swapped for a link between mkdir and the next step', async () => {
    const result = await openForWrite(workspace, 'fresh/deeper/x.txt', {
      afterMkdir: (directory) => {
        if (path.basename(directory) !== 'fresh') return;
        rmSync(directory, { recursive: true });
        symlinkSync(outside, directory);
      },
    });
    expect(result).toMatchObject({ ok: false, rule: 'symlink-escape' });
    expect(existsSync(path.join(outside, 'deeper'))).toBe(false);
  });

  it('refuses when the parent is swapped right before the open', async () => {
    const result = await openForWrite(workspace, 'existing/y.txt', {
      beforeOpen: () => {
        renameSync(path.join(workspace, 'existing'), path.join(workspace, 'moved'));
        symlinkSync(outside, path.join(workspace, 'existing'));
      },
    });
    expect(result).toMatchObject({ ok: false, rule: 'symlink-escape' });
    expect(existsSync(path.join(outside, 'y.txt'))).toBe(false);
  });

  it('reports a file system failure as an io-error result, not an exception', async () => {
    const result = await openForWrite(workspace, 'x.txt', {
      afterResolve: () => {
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      },
    });
    expect(result).toMatchObject({ ok: false, rule: 'io-error' });
    expect(result.ok || result.reason).toMatch(/ENOSPC/);
  });
});
