import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGitEnvironment } from '../../../src/shared/git/build-git-environment.js';
import { openBlobReader } from '../../../src/shared/git/open-blob-reader.js';
import { createHistoryRepo, type HistoryRepo } from '../../support/history-repo.js';

const repos: HistoryRepo[] = [];
afterEach(() => {
  for (const repo of repos.splice(0)) repo.dispose();
});

const env = buildGitEnvironment({ PATH: process.env.PATH }, {});

describe('openBlobReader', () => {
  it('answers pipelined requests in order: bytes, too large (read past), missing, not a blob', async () => {
    const repo = createHistoryRepo();
    repos.push(repo);
    const big = randomBytes(300_000);
    const small = Buffer.concat([Buffer.from('line one\n'), randomBytes(64), Buffer.from([0])]);
    repo.write('big.bin', big);
    repo.write('small.bin', small);
    repo.write('empty.txt', '');
    const commit = repo.commit();
    const reader = openBlobReader(repo.root, env);
    const bigId = repo.git('rev-parse', `${commit}:big.bin`);
    const smallId = repo.git('rev-parse', `${commit}:small.bin`);
    const emptyId = repo.git('rev-parse', `${commit}:empty.txt`);
    const absent = 'f'.repeat(40);
    const answers = await Promise.all([
      reader.read(bigId, 1000),
      reader.read(smallId, 1000),
      reader.read(absent, 1000),
      reader.read(commit, 1000),
      reader.read(bigId, 1_000_000),
      reader.read(emptyId, 1000),
      reader.read(smallId, small.length),
    ]);
    await reader.close();
    expect(answers[0]).toEqual({ kind: 'too-large', size: big.length });
    expect(answers[1]).toEqual({ kind: 'blob', bytes: small });
    expect(answers[2]).toEqual({ kind: 'missing' });
    expect(answers[3]).toEqual({ kind: 'not-blob', type: 'commit' });
    expect(answers[4]).toEqual({ kind: 'blob', bytes: big });
    expect(answers[5]).toEqual({ kind: 'blob', bytes: Buffer.alloc(0) });
    expect(answers[6]).toEqual({ kind: 'blob', bytes: small });
  });

  it('refuses a request that is not an object id, so nothing else reaches git', async () => {
    const repo = createHistoryRepo();
    repos.push(repo);
    const reader = openBlobReader(repo.root, env);
    await expect(reader.read('HEAD:secret.txt', 100)).rejects.toThrow(/not an object id/);
    await expect(reader.read(`${'a'.repeat(40)}\n${'b'.repeat(40)}`, 100)).rejects.toThrow(
      /not an object id/,
    );
    await reader.close();
  });
});
