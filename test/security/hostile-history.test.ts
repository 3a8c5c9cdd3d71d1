import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import { createHistoryRepo, freshGithubToken, type HistoryRepo } from '../support/history-repo.js';
import {
  HOSTILE_ATTRIBUTES,
  makeTempFolder,
  makeTrap,
  plainGit,
  tryPlainGit,
  writeHostileConfig,
  type Trap,
} from '../support/hostile-repo.js';
import { runOy } from '../support/run-oy.js';

/**
 * Reading the history runs none of the repository's programs: a `.git/config` naming textconv,
 * diff, merge and filter drivers, an external diff, fsmonitor, hooks, a gpg program for signed
 * commits and a promisor remote's upload-pack, with `.gitattributes` routing every file through
 * them. The drivers would also hide each secret (a textconv that prints nothing), grafts would cut
 * the commit holding one, and a replace ref would swap its blob: oy reads the raw objects, so it
 * finds every secret while each canary stays silent. Each fixture has a control with plain git.
 */
const TIMEOUT_MS = 300_000;
const folders: string[] = [];
let trap: Trap;
let cases = 0;

beforeAll(() => {
  trap = makeTrap();
  folders.push(trap.dir);
});
afterEach(() => {
  cases++;
  trap.reset();
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  console.log(`hostile history: ${cases} cases`);
});

const ATTRIBUTES = `${HOSTILE_ATTRIBUTES}*.ini filter=x diff=t merge=m\n* merge=m\n`;

interface HostileHistory {
  repo: HistoryRepo;
  /** Each planted token and the commit that added it. */
  planted: { token: string; commit: string; path: string }[];
  firstCommit: string;
}

/** Commits a token into a file of each driver's kind, then makes the repository hostile. */
function makeHostileHistory(): HostileHistory {
  const repo = createHistoryRepo('oy-hostile-history-');
  folders.push(repo.root);
  repo.write('.gitattributes', ATTRIBUTES);
  repo.write('README.md', '# notes\n');
  const firstCommit = repo.commit('attributes');
  const planted: HostileHistory['planted'] = [];
  const removals: string[] = [];
  for (const file of ['app.py', 'notes.md', 'data.txt', 'main.js', 'deploy/settings.ini']) {
    const token = freshGithubToken();
    repo.write(file, `token = "${token}"\n`);
    planted.push({ token, commit: repo.commit(`add ${file}`), path: file });
    // Removed again: only the history holds it.
    repo.write(file, 'token = None\n');
    removals.push(repo.commit(`remove ${file}`));
  }
  // A branch whose settings conflict with main's, for the merge driver's control.
  repo.git('checkout', '-q', '-b', 'conflict', 'HEAD~1');
  repo.write('deploy/settings.ini', 'token = "other"\n');
  repo.commit('conflicting');
  repo.git('checkout', '-q', 'main');
  addSignedCommit(repo);
  // Grafts make the commit after the first plant a root, so plain git never walks that plant.
  writeFileSync(path.join(repo.root, '.git', 'info', 'grafts'), `${removals[0]}\n`);
  // A replace ref swaps the second plant's blob for a clean one in plain git's eyes.
  const swapped = planted[1]!;
  const clean = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: repo.root,
    input: 'token = None\n',
    encoding: 'utf8',
  }).trim();
  repo.git('replace', repo.git('rev-parse', `${swapped.commit}:${swapped.path}`), clean);
  writeHostileConfig(
    trap,
    path.join(repo.root, '.git', 'config'),
    [
      '[merge "m"]',
      `\tdriver = ${trap.program('merge')} %O %A %B`,
      '[log]',
      '\tshowSignature = true',
      '[gpg]',
      `\tprogram = ${trap.program('gpg')}`,
      '[core]',
      `\talternateRefsCommand = ${trap.program('alternate-refs')}`,
      '',
    ].join('\n'),
  );
  cpSync(trap.hooksDir, path.join(repo.root, '.git', 'hooks'), { recursive: true });
  return { repo, planted, firstCommit };
}

/** A commit object carrying a (fake) signature, so `log.showSignature` calls gpg.program. */
function addSignedCommit(repo: HistoryRepo): void {
  const parent = repo.git('rev-parse', 'HEAD');
  const tree = repo.git('rev-parse', 'HEAD^{tree}');
  const who = 'oy-test <oy@test.invalid> 1700000000 +0000';
  const object = [
    `tree ${tree}`,
    `parent ${parent}`,
    `author ${who}`,
    `committer ${who}`,
    'gpgsig -----BEGIN PGP SIGNATURE-----',
    ' ',
    ' iQEzBAABCAAdFiEEAAAAAAAAAAAAAAAAAAAAAAAAAAAFAmVVVVUACgkQAAAAAAAA',
    ' -----END PGP SIGNATURE-----',
    '',
    'signed',
    '',
  ].join('\n');
  const commit = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    cwd: repo.root,
    input: object,
    encoding: 'utf8',
  }).trim();
  repo.git('update-ref', 'refs/heads/main', commit);
}

async function auditJson(root: string, args: string[]): Promise<AuditReport> {
  const out = `oy-history-${Date.now()}.json`;
  const run = await runOy(['audit', '--offline', '--format', 'json', '--out', out, ...args], {
    cwd: root,
  });
  expect(run.code, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(path.join(root, out), 'utf8')) as AuditReport;
  rmSync(path.join(root, out));
  return report;
}

describe('a history whose config, attributes, hooks, grafts and replace refs are hostile', () => {
  let fixture: HostileHistory;
  beforeAll(() => {
    fixture = makeHostileHistory();
  });

  it('control: plain git runs the drivers, gpg, fsmonitor and hooks, and is fooled by grafts and replace refs', () => {
    const copy = makeTempFolder('oy-hostile-history-copy-');
    folders.push(copy);
    cpSync(fixture.repo.root, copy, { recursive: true });
    tryPlainGit(copy, 'log', '-1');
    tryPlainGit(copy, 'log', '-p', '-1', 'HEAD~2');
    tryPlainGit(copy, 'diff', 'HEAD~3', 'HEAD~2');
    tryPlainGit(copy, 'status', '--porcelain');
    tryPlainGit(copy, '-c', 'user.name=x', '-c', 'user.email=x@x', 'merge', 'conflict');
    tryPlainGit(
      copy,
      '-c',
      'user.name=x',
      '-c',
      'user.email=x@x',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'x',
    );
    expect(trap.fired()).toEqual(
      expect.arrayContaining([
        'textconv',
        'diff-external',
        'gpg',
        'fsmonitor',
        'merge',
        'hook-pre-commit',
      ]),
    );
    const walked = plainGit(fixture.repo.root, 'rev-list', 'HEAD').split('\n');
    expect(walked).not.toContain(fixture.planted[0]!.commit);
    const second = fixture.planted[1]!;
    expect(plainGit(fixture.repo.root, 'show', `${second.commit}:${second.path}`)).not.toContain(
      second.token,
    );
  });

  it(
    'oy audit --history runs none of them and finds every planted secret at its commit',
    async () => {
      const report = await auditJson(fixture.repo.root, ['--history']);
      expect(trap.fired()).toEqual([]);
      const found = report.history!.secrets.map(({ commit, path: file }) => `${commit} ${file}`);
      expect(found.sort()).toEqual(
        fixture.planted.map(({ commit, path: file }) => `${commit} ${file}`).sort(),
      );
      expect(JSON.stringify(report)).not.toMatch(/ghp_/);
    },
    TIMEOUT_MS,
  );

  it(
    'oy audit --diff <first commit> runs none of them and finds the range’s secrets',
    async () => {
      const report = await auditJson(fixture.repo.root, ['--diff', fixture.firstCommit]);
      expect(trap.fired()).toEqual([]);
      expect(report.history!.secrets).toHaveLength(fixture.planted.length);
    },
    TIMEOUT_MS,
  );
});

describe('a partial clone whose promisor remote names an upload-pack program', () => {
  let clone: string;
  let token: string;
  beforeAll(() => {
    const source = createHistoryRepo('oy-promisor-source-');
    folders.push(source.root);
    token = freshGithubToken();
    source.write('app.py', `token = "${token}"\n`);
    source.commit();
    source.write('app.py', 'token = None\n');
    source.commit();
    source.git('config', 'uploadpack.allowFilter', 'true');
    clone = makeTempFolder('oy-promisor-clone-');
    folders.push(clone);
    execFileSync(
      'git',
      ['clone', '-q', '--filter=blob:none', `file://${source.root}`, path.join(clone, 'repo')],
      { stdio: 'ignore' },
    );
    clone = path.join(clone, 'repo');
    // Allowed by the repository itself, and the command its fetch would start.
    plainGit(clone, 'config', 'protocol.file.allow', 'always');
    plainGit(clone, 'config', 'remote.origin.uploadpack', `${trap.program('upload-pack')} #`);
  });

  it('control: plain git fetches the missing blob lazily and runs the upload-pack program', () => {
    const blob = plainGit(clone, 'rev-parse', 'HEAD~1:app.py').trim();
    const copy = makeTempFolder('oy-promisor-copy-');
    folders.push(copy);
    cpSync(clone, copy, { recursive: true });
    // The canary never answers the fetch, so git would wait for it: a timeout ends the control.
    try {
      execFileSync('git', ['cat-file', '-p', blob], {
        cwd: copy,
        stdio: 'ignore',
        timeout: 20_000,
      });
    } catch {
      // Killed or failed: only whether the canary ran matters.
    }
    expect(trap.fired()).toContain('upload-pack');
  });

  it(
    'oy audit --history runs it not: the absent blobs are counted missing',
    async () => {
      const report = await auditJson(clone, ['--history']);
      expect(trap.fired()).toEqual([]);
      expect(report.history!.skippedByReason.missing).toBeGreaterThan(0);
      expect(JSON.stringify(report)).not.toContain(token);
    },
    TIMEOUT_MS,
  );
});
