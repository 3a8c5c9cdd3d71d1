import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveWorkspacePath } from '../../../src/safety/paths/resolve-workspace-path.js';
import { isProtectedName } from '../../../src/safety/paths/protected-names.js';

const sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-ws-path-')));
const root = path.join(sandbox, 'ws');
mkdirSync(path.join(root, 'src'), { recursive: true });
writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
symlinkSync('src/a.ts', path.join(root, 'alias.ts'));
symlinkSync('ws', path.join(sandbox, 'root-link'));

afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe('resolveWorkspacePath', () => {
  it('returns the real path and the path relative to the root', () => {
    expect(resolveWorkspacePath(root, 'src/a.ts', 'read')).toEqual({
      ok: true,
      absolutePath: path.join(root, 'src', 'a.ts'),
      relativePath: path.join('src', 'a.ts'),
    });
  });

  it('resolves a read of an inside link to its target', () => {
    expect(resolveWorkspacePath(root, 'alias.ts', 'read')).toMatchObject({
      ok: true,
      relativePath: path.join('src', 'a.ts'),
    });
  });

  it('gives the root as "." for list and search', () => {
    expect(resolveWorkspacePath(root, '.', 'list')).toMatchObject({ ok: true, relativePath: '.' });
  });

  it('works when the root is given through a link, and accepts absolute paths under either form', () => {
    const linked = path.join(sandbox, 'root-link');
    expect(resolveWorkspacePath(linked, path.join(linked, 'src/a.ts'), 'read')).toMatchObject({
      ok: true,
      absolutePath: path.join(root, 'src', 'a.ts'),
    });
    expect(resolveWorkspacePath(linked, path.join(root, 'src/a.ts'), 'read')).toMatchObject({
      ok: true,
    });
  });

  it('names the rule in the refusal and its reason', () => {
    const refused = resolveWorkspacePath(root, '../x', 'read');
    expect(refused).toMatchObject({ ok: false, rule: 'outside-workspace' });
    expect(refused.ok || refused.reason).toBe(
      '"../x" is outside the workspace [outside-workspace]',
    );
  });

  it('never throws for bad input', () => {
    expect(resolveWorkspacePath(root, 42 as unknown as string, 'read')).toMatchObject({
      rule: 'invalid-path',
    });
    expect(resolveWorkspacePath(path.join(sandbox, 'gone'), 'a', 'read')).toMatchObject({
      rule: 'invalid-path',
    });
    expect(resolveWorkspacePath(root, 'x'.repeat(10_000), 'write')).toMatchObject({
      rule: 'invalid-path',
    });
  });
});

describe('isProtectedName', () => {
  it.each(['.git', '.GIT', '.oy', '.Oy', '.git.', '.git ', '.g\u200Cit', '\uFEFF.oy', 'GIT~1'])(
    'protects %j',
    (name) => {
      expect(isProtectedName(name)).toBe(true);
    },
  );

  it.each(['.github', '.gitignore', 'git', '.oyster', 'oy', '.gi'])('leaves %j alone', (name) => {
    expect(isProtectedName(name)).toBe(false);
  });
});
