import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shared/errors.js';
import {
  candidatePaths,
  collect,
  envWithoutGit,
  git,
  gitInit,
  statusOf,
  writeTree,
  useTempDirs,
} from './tree-helpers.js';
import { commitAll } from '../../support/git-fixture.js';

const tempDir = useTempDirs();

/** A home directory whose global git ignore file holds `patterns`. */
function makeHome(patterns: string): { homeDir: string; xdgConfigHome: string } {
  const homeDir = tempDir();
  const xdgConfigHome = path.join(homeDir, '.config');
  writeTree(xdgConfigHome, { 'git/ignore': patterns });
  return { homeDir, xdgConfigHome };
}

// Every ignore source at once, including the cases where git's precedence matters.
const IGNORE_TREE: Record<string, string> = {
  '.gitignore': 'cache/\n*.log\n!keep.log\n/top-only.txt\n',
  'top-only.txt': 'ignored at the top',
  'src/top-only.txt': 'anchored pattern does not reach here',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.log': 'ignored',
  'src/keep.log': 'negated back in',
  'src/.gitignore': '!cache/\n',
  'src/cache/x.txt': 're-included by a deeper negation',
  'cache/y.txt': 'ignored directory',
  'src/nested/.gitignore': '*.tmp\n!important.tmp\n/local.txt\n',
  'src/nested/x.tmp': 'ignored by nested rule',
  'src/nested/important.tmp': 'negated in nested rule',
  'src/nested/local.txt': 'anchored to nested/',
  'src/nested/deeper/local.txt': 'not matched by the anchored rule',
  'notes/private.txt': 'ignored by info/exclude',
  'notes/public.txt': 'kept',
  'editor.swp': 'ignored by the global excludes file',
  'src/tmp.swp': 'ignored by the global excludes file at depth',
  'dir with space/[weird] name.txt': 'odd characters',
};

const IGNORED = [
  'top-only.txt',
  'src/b.log',
  'cache/y.txt',
  'src/nested/x.tmp',
  'src/nested/local.txt',
  'notes/private.txt',
  'editor.swp',
  'src/tmp.swp',
];

function makeIgnoreRepo(): { root: string; home: { homeDir: string; xdgConfigHome: string } } {
  const root = tempDir();
  writeTree(root, IGNORE_TREE);
  gitInit(root);
  writeFileSync(path.join(root, '.git/info/exclude'), 'notes/private.txt\n');
  return { root, home: makeHome('*.swp\n') };
}

describe('listing: git path and walker', () => {
  it('give the same candidates on the same tree, honouring every ignore source', async () => {
    const { root, home } = makeIgnoreRepo();
    git(root, 'add', 'src/a.ts', '.gitignore');
    git(root, '-c', 'user.name=t', 'commit', '-q', '-m', 'part');

    const viaGit = await collect(root, home);
    const viaWalk = await collect(root, { ...home, env: envWithoutGit(tempDir()) });

    expect(viaGit.isGitRepo).toBe(true);
    expect(viaWalk.isGitRepo).toBe(false);
    const expected = Object.keys(IGNORE_TREE)
      .filter((file) => !IGNORED.includes(file))
      .sort();
    expect(candidatePaths(viaGit)).toEqual(expected);
    expect(candidatePaths(viaWalk)).toEqual(expected);
    const shape = (files: { path: string; size: number }[]) =>
      files.map(({ path: p, size }) => ({ path: p, size }));
    expect(shape(viaWalk.candidates)).toEqual(shape(viaGit.candidates));
    // Only git knows what is tracked.
    expect(viaGit.candidates.find((file) => file.path === 'src/a.ts')?.isTracked).toBe(true);
    expect(viaGit.candidates.find((file) => file.path === 'src/keep.log')?.isTracked).toBe(false);
    expect(viaWalk.candidates.every((file) => !file.isTracked)).toBe(true);
    // Ignored files are not candidates at all, so they have no ledger line either.
    for (const file of IGNORED) {
      expect(statusOf(viaGit, file)).toBeUndefined();
      expect(statusOf(viaWalk, file)).toBeUndefined();
    }
    expect(statusOf(viaWalk, '.git/')).toBe('skipped(git-dir)');
  });

  it('honours core.excludesFile from ~/.gitconfig in both paths', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a', 'b.secretish': 'b', 'c.other': 'c' });
    gitInit(root);
    const homeDir = tempDir();
    writeTree(homeDir, {
      '.gitconfig': '[user]\n\tname = x\n[core]\n\texcludesFile = "~/my ignores"\n',
      'my ignores': '*.secretish\n',
      // The default file is not read when core.excludesFile is set.
      '.config/git/ignore': '*.other\n',
    });
    const home = { homeDir, xdgConfigHome: path.join(homeDir, '.config') };
    const viaGit = await collect(root, home);
    const viaWalk = await collect(root, { ...home, env: envWithoutGit(tempDir()) });
    expect(candidatePaths(viaGit)).toEqual(['a.txt', 'c.other']);
    expect(candidatePaths(viaWalk)).toEqual(['a.txt', 'c.other']);
  });

  it('applies the parent directories .gitignore files when the root is below the work tree top', async () => {
    const top = tempDir();
    writeTree(top, {
      '.gitignore': '*.gen.ts\n',
      'pkg/.gitignore': 'tmp/\n',
      'pkg/app/main.ts': 'x',
      'pkg/app/main.gen.ts': 'ignored from the top',
      'pkg/app/tmp/t.ts': 'ignored from pkg/',
      'outside.ts': 'not under the root',
    });
    gitInit(top);
    const root = path.join(top, 'pkg/app');
    const viaGit = await collect(root);
    const viaWalk = await collect(root, { env: envWithoutGit(tempDir()) });
    expect(candidatePaths(viaGit)).toEqual(['main.ts']);
    expect(candidatePaths(viaWalk)).toEqual(['main.ts']);
  });

  it('collects thousands of files exactly', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let index = 0; index < 3000; index++) {
      files[`d${index % 30}/sub${index % 7}/f${index}.ts`] = `export const v${index} = ${index};\n`;
    }
    writeTree(root, files);
    const viaWalk = await collect(root);
    gitInit(root);
    const viaGit = await collect(root);
    const expected = Object.keys(files).sort();
    expect(candidatePaths(viaWalk)).toEqual(expected);
    expect(candidatePaths(viaGit)).toEqual(expected);
    expect(viaGit.candidates.find((file) => file.path === 'd3/sub3/f3.ts')?.size).toBe(
      'export const v3 = 3;\n'.length,
    );
    expect(viaGit.ledger).toEqual([]);
  });

  it('sorts candidates and ledger by UTF-8 byte order', async () => {
    const root = tempDir();
    // U+FF5E sorts before U+1F600 in UTF-8 but after it in UTF-16 code units.
    writeTree(root, {
      'b.txt': 'b',
      'B.txt': 'B',
      '\uFF5E.txt': 'x',
      '\u{1F600}.txt': 'y',
      'a/z.txt': 'z',
    });
    const result = await collect(root);
    const bytes = candidatePaths(result).map((p) => Buffer.from(p));
    const sorted = [...bytes].sort(Buffer.compare);
    expect(bytes).toEqual(sorted);
    expect(candidatePaths(result)).toEqual([
      'B.txt',
      'a/z.txt',
      'b.txt',
      '\uFF5E.txt',
      '\u{1F600}.txt',
    ]);
  });
});

describe('workspace rules: .oyignore, --exclude, --include', () => {
  for (const mode of ['git', 'walk'] as const) {
    it(`records each with its reason (${mode})`, async () => {
      const root = tempDir();
      writeTree(root, {
        '.oyignore': 'docs/\n*.snap\n!keep.snap\n',
        'docs/guide.md': 'g',
        'src/a.ts': 'a',
        'src/a.snap': 's',
        'src/keep.snap': 'k',
        'src/a.test.ts': 't',
        'fixtures/big.json': '{}',
        'lib/util.js': 'u',
        'README.md': 'r',
      });
      if (mode === 'git') gitInit(root);
      const env = mode === 'git' ? process.env : envWithoutGit(tempDir());
      const result = await collect(root, {
        env,
        exclude: ['*.test.ts', 'fixtures'],
        include: ['src/', '*.md', '.oyignore'],
      });
      expect(result.isGitRepo).toBe(mode === 'git');
      expect(candidatePaths(result)).toEqual([
        '.oyignore',
        'README.md',
        'src/a.ts',
        'src/keep.snap',
      ]);
      // The repository's own .oyignore keeps a file from review, never from the secret scan.
      expect(statusOf(result, 'src/a.snap')).toBe('secrets-only(repository-ignore)');
      expect(statusOf(result, 'src/a.test.ts')).toBe('skipped(excluded)');
      expect(statusOf(result, 'lib/util.js')).toBe('skipped(not-included)');
      // The repository's .oyignore never skips a whole directory: each file in it is listed.
      expect(statusOf(result, 'docs/guide.md')).toBe('secrets-only(repository-ignore)');
      // The walker records a directory the user excluded once; git lists each file in it.
      if (mode === 'git') {
        expect(statusOf(result, 'fixtures/big.json')).toBe('skipped(excluded)');
      } else {
        expect(statusOf(result, 'fixtures/')).toBe('skipped(excluded)');
      }
    });
  }
});

describe('git specifics', () => {
  it('marks a tracked file deleted in the work tree as missing', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'a', 'gone.ts': 'g' });
    gitInit(root);
    commitAll(root);
    rmSync(path.join(root, 'gone.ts'));
    const result = await collect(root);
    expect(statusOf(result, 'gone.ts')).toBe('skipped(missing)');
    expect(candidatePaths(result)).toEqual(['a.ts']);
  });

  it('records a submodule that is not checked out, and an untracked nested repository as not a regular file', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'a' });
    gitInit(root);
    commitAll(root);
    const head = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'update-index', '--add', '--cacheinfo', `160000,${head},libs/sub`);
    writeTree(root, { 'nested/inner.ts': 'i' });
    gitInit(path.join(root, 'nested'));
    const result = await collect(root);
    expect(result.ledger).toContainEqual({
      path: 'libs/sub/',
      status: 'skipped',
      reason: 'submodule-not-checked-out',
      detail: 'run git submodule update --init to audit it',
    });
    expect(statusOf(result, 'nested/')).toBe('skipped(not-regular-file)');
    expect(candidatePaths(result)).toEqual(['a.ts']);
  });

  it('reports secret-bearing files with whether git tracks them; .env.example stays a candidate', async () => {
    const root = tempDir();
    writeTree(root, {
      '.env': 'TOKEN=committed',
      'deploy/server.pem': 'pem',
      '.env.example': 'TOKEN=\n',
      'config/.env.local': 'TOKEN=local',
      'old/id_rsa': 'deleted here, still committed',
      'src/app.ts': 'x',
    });
    gitInit(root);
    git(root, 'add', '.env', 'deploy/server.pem', '.env.example', 'old/id_rsa', 'src/app.ts');
    git(root, 'commit', '-q', '-m', 'secrets');
    rmSync(path.join(root, 'old/id_rsa'));
    const result = await collect(root);
    expect(result.secretFiles).toEqual([
      { path: '.env', isTracked: true },
      { path: 'config/.env.local', isTracked: false },
      { path: 'deploy/server.pem', isTracked: true },
      { path: 'old/id_rsa', isTracked: true },
    ]);
    expect(statusOf(result, '.env')).toBe('skipped(secret-file)');
    expect(statusOf(result, 'config/.env.local')).toBe('skipped(secret-file)');
    expect(candidatePaths(result)).toEqual(['.env.example', 'src/app.ts']);

    const walked = await collect(root, { env: envWithoutGit(tempDir()) });
    expect(walked.secretFiles).toEqual([
      { path: '.env', isTracked: false },
      { path: 'config/.env.local', isTracked: false },
      { path: 'deploy/server.pem', isTracked: false },
    ]);
  });

  it('an empty repository yields nothing, and no error', async () => {
    const root = tempDir();
    gitInit(root);
    const result = await collect(root);
    expect(result).toEqual({
      candidates: [],
      ledger: [],
      isGitRepo: true,
      diff: null,
      secretFiles: [],
      configChanges: [],
    });
  });

  it('a directory that is not a git repository is walked', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'a', '.gitignore': 'b.ts\n', 'b.ts': 'b' });
    const result = await collect(root);
    expect(result.isGitRepo).toBe(false);
    expect(candidatePaths(result)).toEqual(['.gitignore', 'a.ts']);
  });

  it('the walker never lists a ".git" file (a linked work tree) as a candidate', async () => {
    const root = tempDir();
    writeTree(root, {
      'a.ts': 'a',
      '.git': 'gitdir: /nowhere\n',
      'sub/.git': 'gitdir: /nowhere\n',
    });
    const result = await collect(root, { env: envWithoutGit(tempDir()) });
    expect(candidatePaths(result)).toEqual(['a.ts']);
    expect(statusOf(result, '.git')).toBe('skipped(git-dir)');
    expect(statusOf(result, 'sub/.git')).toBe('skipped(git-dir)');
  });
});

describe('--diff', () => {
  function makeHistory(): string {
    const root = tempDir();
    writeTree(root, {
      'same.ts': 'unchanged',
      'committed.ts': 'v1',
      'worktree.ts': 'v1',
      'staged.ts': 'v1',
      'main-only.ts': 'v1',
      '.env': 'A=1',
    });
    gitInit(root);
    commitAll(root, 'base');
    git(root, 'tag', 'base');
    // main moves on after the fork: its changes are not ours.
    writeFileSync(path.join(root, 'main-only.ts'), 'v2 on main');
    commitAll(root, 'main moves');
    git(root, 'checkout', '-q', '-b', 'feature', 'base');
    writeFileSync(path.join(root, 'committed.ts'), 'v2');
    commitAll(root, 'feature');
    writeFileSync(path.join(root, 'worktree.ts'), 'v2, not staged');
    writeFileSync(path.join(root, 'staged.ts'), 'v2, staged');
    git(root, 'add', 'staged.ts');
    writeFileSync(path.join(root, 'untracked.ts'), 'new');
    return root;
  }

  it('narrows to files changed since the fork point, staged, unstaged or untracked', async () => {
    const root = makeHistory();
    for (const ref of ['main', 'base']) {
      const result = await collect(root, { diffRef: ref });
      expect(candidatePaths(result)).toEqual([
        'committed.ts',
        'staged.ts',
        'untracked.ts',
        'worktree.ts',
      ]);
      expect(statusOf(result, 'same.ts')).toBe('skipped(unchanged)');
      expect(statusOf(result, 'main-only.ts')).toBe('skipped(unchanged)');
      expect(statusOf(result, '.env')).toBe('skipped(unchanged)');
    }
    const sinceHead = await collect(root, { diffRef: 'HEAD' });
    expect(statusOf(sinceHead, 'committed.ts')).toBe('skipped(unchanged)');
    expect(statusOf(sinceHead, 'worktree.ts')).toBe('candidate');
  });

  it('is limited to the root when the root is a subdirectory', async () => {
    const root = makeHistory();
    mkdirSync(path.join(root, 'sub'));
    writeFileSync(path.join(root, 'sub/x.ts'), 'x');
    commitAll(root, 'sub');
    writeFileSync(path.join(root, 'sub/x.ts'), 'x2');
    const result = await collect(path.join(root, 'sub'), { diffRef: 'HEAD' });
    expect(candidatePaths(result)).toEqual(['x.ts']);
    expect(result.ledger).toEqual([]);
  });

  it('rejects a ref that names no commit, one that looks like an option, and a non-git root', async () => {
    const root = makeHistory();
    await expect(collect(root, { diffRef: 'no-such-ref' })).rejects.toBeInstanceOf(UsageError);
    await expect(collect(root, { diffRef: '--output=/tmp/x' })).rejects.toThrow(/--diff/);
    const plain = tempDir();
    writeTree(plain, { 'a.ts': 'a' });
    await expect(collect(plain, { diffRef: 'HEAD' })).rejects.toBeInstanceOf(UsageError);
  });
});
