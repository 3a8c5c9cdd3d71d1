import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll } from '../../support/git-fixture.js';
import {
  candidatePaths,
  collect,
  readPaths,
  envWithoutGit,
  statusOf,
  useTempDirs,
  writeTree,
} from './tree-helpers.js';

/**
 * The audited repository's own `.oyignore` and project include/exclude: what they leave out is
 * listed with a status of its own, never dropped, and never hides a secret-bearing file; the
 * user's own `--exclude` keeps its quiet `excluded` status.
 */
const tempDir = useTempDirs();
let cases = 0;
afterAll(() => console.log(`collect repository rules: ${cases} cases`));

const TREE: Record<string, string> = {
  'src/app.ts': 'export const app = 1;\n',
  'src/admin/panel.ts': 'export const panel = 2;\n',
  'docs/guide.md': '# guide\n',
  'logo.png': 'not really a png',
};

describe('repository rules', () => {
  for (const mode of ['git', 'walk'] as const) {
    it(`.oyignore "*" lists every file as skipped(repository-ignore) (${mode})`, async () => {
      cases++;
      const root = tempDir();
      writeTree(root, { ...TREE, '.oyignore': '*\n' });
      if (mode === 'git') commitAll(root);
      const env = mode === 'git' ? process.env : envWithoutGit(tempDir());
      const result = await collect(root, { env });
      expect(candidatePaths(result)).toEqual([]);
      // Left out of the review, yet handed on to be read for committed secrets; a name that
      // says binary hides nothing (content decides that when the file is read).
      for (const file of [
        'src/app.ts',
        'src/admin/panel.ts',
        'docs/guide.md',
        '.oyignore',
        'logo.png',
      ]) {
        expect(statusOf(result, file), file).toBe('secrets-only(repository-ignore)');
      }
      expect(readPaths(result)).toEqual([
        '.oyignore',
        'docs/guide.md',
        'logo.png',
        'src/admin/panel.ts',
        'src/app.ts',
      ]);
    });
  }

  it('a committed secret-bearing file under .oyignore is still reported', async () => {
    cases++;
    const root = tempDir();
    writeTree(root, { ...TREE, '.oyignore': '*.pem\n', 'deploy/server.pem': 'key' });
    commitAll(root);
    const result = await collect(root);
    expect(statusOf(result, 'deploy/server.pem')).toBe('skipped(secret-file)');
    expect(result.secretFiles).toEqual([{ path: 'deploy/server.pem', isTracked: true }]);
  });

  it('control: without .oyignore the same files are candidates', async () => {
    cases++;
    const root = tempDir();
    writeTree(root, TREE);
    commitAll(root);
    const result = await collect(root);
    expect(candidatePaths(result)).toEqual([
      'docs/guide.md',
      'logo.png',
      'src/admin/panel.ts',
      'src/app.ts',
    ]);
  });

  it('project exclude and include give skipped(project-exclude) with the rule named', async () => {
    cases++;
    const root = tempDir();
    writeTree(root, TREE);
    commitAll(root);
    const result = await collect(root, {
      projectInclude: ['src/**'],
      projectExclude: ['src/admin/'],
    });
    expect(candidatePaths(result)).toEqual(['src/app.ts']);
    const skipOf = (file: string) =>
      result.candidates.find((candidate) => candidate.path === file)?.reviewSkip;
    expect(skipOf('src/admin/panel.ts')).toEqual({
      reason: 'project-exclude',
      detail: 'audit.exclude in .oy/config.json',
    });
    expect(skipOf('docs/guide.md')).toEqual({
      reason: 'project-exclude',
      detail: 'not in audit.include of .oy/config.json',
    });
  });

  it("the user's own --exclude wins and stays skipped(excluded)", async () => {
    cases++;
    const root = tempDir();
    writeTree(root, { ...TREE, '.oyignore': 'docs/\n' });
    commitAll(root);
    const result = await collect(root, { exclude: ['docs/'], projectExclude: ['src/admin/'] });
    expect(statusOf(result, 'docs/guide.md')).toBe('skipped(excluded)');
    expect(statusOf(result, 'src/admin/panel.ts')).toBe('secrets-only(project-exclude)');
  });

  it('with --diff, an unchanged file stays skipped(unchanged) whatever .oyignore says', async () => {
    cases++;
    const root = tempDir();
    writeTree(root, { ...TREE, '.oyignore': 'src/\n' });
    commitAll(root);
    writeFileSync(path.join(root, 'src', 'app.ts'), 'export const app = 3;\n');
    const result = await collect(root, { diffRef: 'HEAD' });
    expect(statusOf(result, 'src/admin/panel.ts')).toBe('skipped(unchanged)');
    expect(statusOf(result, 'src/app.ts')).toBe('secrets-only(repository-ignore)');
  });
});

describe('configuration changes under --diff', () => {
  function baseRepo(): string {
    const root = tempDir();
    writeTree(root, TREE);
    commitAll(root);
    return root;
  }

  it('names .oyignore and .oy/config.json when the change adds them', async () => {
    cases++;
    const root = baseRepo();
    writeTree(root, { '.oyignore': '*\n', '.oy/config.json': '{"audit":{"exclude":["src/"]}}' });
    commitAll(root, 'narrow the audit');
    const result = await collect(root, { diffRef: 'HEAD~1' });
    expect(result.configChanges).toEqual([{ path: '.oy/config.json' }, { path: '.oyignore' }]);
  });

  it('names a deleted .oyignore, and an untracked new one', async () => {
    cases++;
    const root = tempDir();
    writeTree(root, { ...TREE, '.oyignore': 'docs/\n' });
    commitAll(root);
    rmSync(path.join(root, '.oyignore'));
    commitAll(root, 'drop the ignore file');
    expect((await collect(root, { diffRef: 'HEAD~1' })).configChanges).toEqual([
      { path: '.oyignore' },
    ]);
    writeTree(root, { '.oy/config.json': '{}' });
    expect((await collect(root, { diffRef: 'HEAD' })).configChanges).toEqual([
      { path: '.oy/config.json' },
    ]);
  });

  it('control: a change that leaves them alone, and a run without --diff, name none', async () => {
    cases++;
    const root = tempDir();
    writeTree(root, { ...TREE, '.oyignore': 'docs/\n' });
    commitAll(root);
    writeTree(root, { 'src/app.ts': 'export const app = 4;\n' });
    commitAll(root, 'code only');
    expect((await collect(root, { diffRef: 'HEAD~1' })).configChanges).toEqual([]);
    expect((await collect(root)).configChanges).toEqual([]);
  });
});
