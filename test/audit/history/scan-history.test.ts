import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanHistory, type HistoryScanOptions } from '../../../src/audit/history/scan-history.js';
import { createRedactor } from '../../../src/safety/redact/redactor.js';
import { UsageError } from '../../../src/shared/errors.js';
import { buildGitEnvironment } from '../../../src/shared/git/build-git-environment.js';
import {
  awsCredentialsText,
  createHistoryRepo,
  freshAwsKeyPair,
  freshGithubToken,
  type HistoryRepo,
} from '../../support/history-repo.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function newRepo(): HistoryRepo {
  const repo = createHistoryRepo();
  cleanups.push(() => repo.dispose());
  return repo;
}

/** The scan with the real redactor, counting the texts it was given. */
function scan(root: string, overrides: Partial<HistoryScanOptions> = {}) {
  const redactor = createRedactor();
  const texts: string[] = [];
  const progress: [number, number][] = [];
  const result = scanHistory({
    root,
    gitEnv: buildGitEnvironment({ PATH: process.env.PATH }, {}),
    since: null,
    maxFileBytes: 1024 * 1024,
    include: [],
    exclude: [],
    redact: (text) => {
      texts.push(text);
      return redactor.redact(text);
    },
    onProgress: (done, total) => progress.push([done, total]),
    ...overrides,
  });
  return { result, texts, progress };
}

const places = (found: { rule: string; commit: string; path: string; line: number | null }[]) =>
  found.map(({ rule, commit, path: file, line }) => [rule, commit, file, line]);

describe('scanHistory', () => {
  it('a pull request range: the secret a middle commit adds and the last removes is found there', async () => {
    const repo = newRepo();
    repo.write('app.py', 'print(1)\n');
    repo.commit();
    repo.git('checkout', '-q', '-b', 'feature');
    const pair = freshAwsKeyPair();
    repo.write('deploy/settings.ini', awsCredentialsText(pair));
    const adding = repo.commit();
    repo.remove('deploy/settings.ini');
    repo.commit();
    repo.write('app.py', 'print(2)\n');
    repo.commit();
    const { result, progress } = scan(repo.root, { since: 'main' });
    const { report, found } = await result;
    expect(places(found)).toEqual([
      ['aws-access-key-id', adding, 'deploy/settings.ini', 2],
      ['aws-secret-access-key', adding, 'deploy/settings.ini', 3],
    ]);
    expect(report).toMatchObject({ scope: 'range', ref: 'main', commits: 3, blobs: 2 });
    expect(progress.at(0)).toEqual([0, 3]);
    expect(progress.at(-1)).toEqual([3, 3]);
    expect(JSON.stringify(report)).not.toContain(pair.secret);
  });

  it('scans each blob once: a reverted or copied version is not scanned or reported again', async () => {
    const repo = newRepo();
    const token = freshGithubToken();
    const withKey = `a = 1\ntoken = "${token}"\n`;
    repo.write('a.txt', withKey);
    const first = repo.commit();
    repo.write('a.txt', 'a = 1\n');
    repo.commit();
    repo.write('a.txt', withKey);
    repo.commit('revert');
    repo.write('b.txt', withKey);
    repo.commit('copy');
    const { result, texts } = scan(repo.root);
    const { report, found } = await result;
    expect(places(found)).toEqual([['github-token', first, 'a.txt', 2]]);
    expect(report).toMatchObject({ scope: 'all', commits: 4, blobs: 2 });
    // The second version adds no line: the redactor never sees it.
    expect(texts).toHaveLength(1);
  });

  it('merges: a side branch secret is its own commit’s; an evil merge is named for what it adds', async () => {
    const repo = newRepo();
    repo.write('conf.txt', 'base\n');
    repo.commit();
    repo.git('checkout', '-q', '-b', 'side');
    repo.write('side.txt', `token = "${freshGithubToken()}"\n`);
    const sideCommit = repo.commit();
    repo.git('checkout', '-q', 'main');
    repo.write('conf.txt', 'base\nmain\n');
    repo.commit();
    try {
      repo.git('merge', '-q', '--no-commit', '--no-ff', 'side');
    } catch {
      // Concluded by the commit below.
    }
    repo.write('conf.txt', `base\nmain\ntoken = "${freshGithubToken()}"\n`);
    const merge = repo.commit('merge side');
    const { report, found } = await scan(repo.root).result;
    expect(places(found)).toEqual([
      ['github-token', sideCommit, 'side.txt', 1],
      ['github-token', merge, 'conf.txt', 3],
    ]);
    expect(report.commits).toBe(4);
  });

  it('skips by content and by path, counting why; names a secret-bearing file once', async () => {
    const repo = newRepo();
    repo.write('blob.dat', Buffer.concat([Buffer.from('x\0'), Buffer.from(freshGithubToken())]));
    repo.write('huge.txt', `token = "${freshGithubToken()}"\n${'x'.repeat(3000)}\n`);
    repo.write('node_modules/pkg/index.js', `const t = "${freshGithubToken()}";\n`);
    repo.write('test/skip.txt', `token = "${freshGithubToken()}"\n`);
    repo.write('.env', `GITHUB_TOKEN=${freshGithubToken()}\n`);
    const first = repo.commit();
    repo.write('.env', `GITHUB_TOKEN=${freshGithubToken()}\nOTHER=1\n`);
    const second = repo.commit();
    const { report, found } = await scan(repo.root, { maxFileBytes: 2000, exclude: ['test/'] })
      .result;
    expect(places(found)).toEqual([
      ['secret-file', first, '.env', null],
      ['github-token', first, '.env', 1],
      ['github-token', second, '.env', 1],
    ]);
    expect(report.skippedByReason).toEqual({
      binary: 1,
      'too-large': 1,
      'default-dir': 1,
      excluded: 1,
    });
  });

  it('a workspace in a subfolder sees its own paths only, relative to itself', async () => {
    const repo = newRepo();
    repo.write('outside.txt', `token = "${freshGithubToken()}"\n`);
    repo.write('svc/inside.txt', `token = "${freshGithubToken()}"\n`);
    const commit = repo.commit();
    const { found } = await scan(path.join(repo.root, 'svc')).result;
    expect(places(found)).toEqual([['github-token', commit, 'inside.txt', 1]]);
  });

  it('says when the clone is shallow', async () => {
    const repo = newRepo();
    for (let index = 0; index < 3; index++) {
      repo.write('a.txt', `${index}\n`);
      repo.commit();
    }
    const clone = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-shallow-')));
    cleanups.push(() => rmSync(clone, { recursive: true, force: true }));
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.root}`, clone], {
      stdio: 'ignore',
    });
    const { report } = await scan(clone).result;
    expect(report).toMatchObject({ isShallow: true, commits: 1 });
  });

  it('outside a git work tree, or with a ref that names no commit, it is a usage error', async () => {
    const folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-nogit-')));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    await expect(scan(folder).result).rejects.toThrow(UsageError);
    await expect(scan(folder).result).rejects.toThrow(/`--history` needs a git work tree/);
    const repo = newRepo();
    repo.commit();
    await expect(scan(repo.root, { since: 'no-such-branch' }).result).rejects.toThrow(
      /`--diff` needs a git ref that names a commit/,
    );
    await expect(scan(repo.root, { since: '--output=/tmp/x' }).result).rejects.toThrow(UsageError);
  });
});
