import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGitEnvironment } from '../../../src/shared/git/build-git-environment.js';
import { listCommits } from '../../../src/shared/git/list-commits.js';
import {
  readCommitChanges,
  type CommitChanges,
} from '../../../src/shared/git/read-commit-changes.js';
import { createHistoryRepo, type HistoryRepo } from '../../support/history-repo.js';

const repos: HistoryRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

const env = buildGitEnvironment({ PATH: process.env.PATH }, {});

function newRepo(): HistoryRepo {
  const repo = createHistoryRepo();
  repos.push(repo);
  return repo;
}

async function readAll(repo: HistoryRepo, exclude: string[] = []): Promise<CommitChanges[]> {
  const commits = await listCommits(repo.root, env, { exclude });
  const read: CommitChanges[] = [];
  for await (const changes of readCommitChanges(repo.root, env, commits)) read.push(changes);
  return read;
}

const blobOf = (repo: HistoryRepo, spec: string) => repo.git('rev-parse', spec);

describe('listCommits and readCommitChanges', () => {
  it('walks parents first: an added file has no parent blob, a modified one its old blob, a deletion mode 000000', async () => {
    const repo = newRepo();
    repo.write('a.txt', 'one\n');
    const first = repo.commit();
    repo.write('a.txt', 'one\ntwo\n');
    repo.write('b.txt', 'bee\n');
    const second = repo.commit();
    repo.remove('b.txt');
    const third = repo.commit();
    const read = await readAll(repo);
    expect(read.map((entry) => entry.commit)).toEqual([first, second, third]);
    expect(read[0]!.changes).toEqual([
      {
        path: 'a.txt',
        isValidName: true,
        mode: '100644',
        blob: blobOf(repo, `${first}:a.txt`),
        parentBlobs: [],
      },
    ]);
    expect(read[1]!.changes).toEqual([
      expect.objectContaining({
        path: 'a.txt',
        blob: blobOf(repo, `${second}:a.txt`),
        parentBlobs: [blobOf(repo, `${first}:a.txt`)],
      }),
      expect.objectContaining({ path: 'b.txt', parentBlobs: [] }),
    ]);
    expect(read[2]!.changes).toEqual([expect.objectContaining({ path: 'b.txt', mode: '000000' })]);
  });

  it('a range leaves out the commits its base reaches; an empty commit still counts', async () => {
    const repo = newRepo();
    repo.write('a.txt', 'one\n');
    const base = repo.commit();
    const empty = repo.commit('nothing');
    repo.write('a.txt', 'two\n');
    const last = repo.commit();
    const read = await readAll(repo, [base]);
    expect(read.map((entry) => [entry.commit, entry.changes.length])).toEqual([
      [empty, 0],
      [last, 1],
    ]);
  });

  it('a clean merge adds nothing; an evil merge lists only what differs from every parent, with each parent blob', async () => {
    const repo = newRepo();
    repo.write('shared.txt', 'base\n');
    repo.write('side.txt', 'base\n');
    repo.commit();
    repo.git('checkout', '-q', '-b', 'side');
    repo.write('side.txt', 'base\nfrom side\n');
    repo.commit();
    repo.git('checkout', '-q', 'main');
    repo.write('shared.txt', 'base\nfrom main\n');
    repo.commit();
    repo.git('merge', '-q', '--no-edit', 'side');
    const cleanMerge = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'other', 'HEAD~1');
    repo.write('shared.txt', 'base\nfrom other\n');
    repo.commit();
    repo.git('checkout', '-q', 'main');
    // The merge's own resolution adds a line no parent has.
    try {
      repo.git('merge', '-q', '--no-commit', '--no-ff', 'other');
    } catch {
      // A conflict leaves the merge for the commit below to conclude.
    }
    repo.write('shared.txt', 'base\nfrom main\nfrom other\nresolved by hand\n');
    const evilMerge = repo.commit('merge other');
    const read = await readAll(repo);
    expect(read.find((entry) => entry.commit === cleanMerge)!.changes).toEqual([]);
    const evil = read.find((entry) => entry.commit === evilMerge)!;
    expect(evil.changes).toEqual([
      expect.objectContaining({
        path: 'shared.txt',
        blob: blobOf(repo, `${evilMerge}:shared.txt`),
        parentBlobs: [
          blobOf(repo, `${evilMerge}^1:shared.txt`),
          blobOf(repo, `${evilMerge}^2:shared.txt`),
        ],
      }),
    ]);
    // Parents come before their merge.
    const order = read.map((entry) => entry.commit);
    expect(order.indexOf(repo.git('rev-parse', `${evilMerge}^2`))).toBeLessThan(
      order.indexOf(evilMerge),
    );
  });

  it('reports symlinks by their mode and keeps odd path bytes, with no quoting', async () => {
    const repo = newRepo();
    repo.write('target.txt', 'x\n');
    symlinkSync('target.txt', path.join(repo.root, 'link'));
    repo.write('new\nline "quoted" é.txt', 'y\n');
    repo.commit();
    const [read] = await readAll(repo);
    const byPath = new Map(read!.changes.map((change) => [change.path, change]));
    expect(byPath.get('link')?.mode).toBe('120000');
    expect(byPath.get('new\nline "quoted" é.txt')).toMatchObject({
      mode: '100644',
      isValidName: true,
    });
  });

  it('an unborn HEAD has no commits', async () => {
    const repo = newRepo();
    expect(await listCommits(repo.root, env, { exclude: [] })).toEqual([]);
  });
});
