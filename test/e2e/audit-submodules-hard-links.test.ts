import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditReport } from '../../src/audit/types.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';
import { createSecretFactory } from '../support/secret-factory.js';

/**
 * Submodules are scanned and reviewed like the rest, through the hardened git runner (a
 * submodule's own config runs nothing); a hard link is never read. Fresh secrets and canaries
 * each run.
 */
const secrets = createSecretFactory(randomInt(2 ** 31));
let cases = 0;
afterAll(() => console.log(`audit submodules and hard links: ${cases} cases`));

const temp = (prefix: string): string => realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    [
      ...['-c', 'user.name=oy-test', '-c', 'user.email=oy@test.invalid'],
      ...['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main'],
      // Local submodules are refused by default since git 2.38.1; the test makes its own.
      ...['-c', 'protocol.file.allow=always'],
      ...args,
    ],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function write(root: string, files: Record<string, string>): void {
  for (const [relPath, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, relPath)), { recursive: true });
    writeFileSync(path.join(root, relPath), content);
  }
}

interface Fixture {
  superRepo: string;
  library: string;
  token: string;
  backdoor: string;
}

/** A library repository holding a token and a marked function, added to a superproject as a real submodule. */
function makeSubmoduleFixture(): Fixture {
  const library = temp('oy-sub-lib-');
  const token = secrets.githubToken('p');
  const backdoor = `BACKDOOR_${randomBytes(8).toString('hex')}`;
  write(library, {
    'src/keys.py': `API_TOKEN = "${token}"\n`,
    'src/handler.py': `def handle(request):\n    # ${backdoor}\n    return eval(request.args["q"])\n`,
  });
  git(library, 'init', '-q');
  git(library, 'add', '-A');
  git(library, 'commit', '-q', '-m', 'library');
  const superRepo = temp('oy-sub-super-');
  write(superRepo, { 'src/app.py': 'def app():\n    return 1\n', '.gitignore': 'out/\n' });
  git(superRepo, 'init', '-q');
  git(superRepo, 'submodule', 'add', '-q', library, 'libs/lib');
  git(superRepo, 'add', '-A');
  git(superRepo, 'commit', '-q', '-m', 'with a submodule');
  return { superRepo, library, token, backdoor };
}

function readReport(repo: string, file = 'out/r.json'): AuditReport {
  return JSON.parse(readFileSync(path.join(repo, file), 'utf8')) as AuditReport;
}

function statusOf(report: AuditReport, relPath: string): string | undefined {
  const entry = report.coverage.ledger.find((each) => each.path === relPath);
  return entry && `${entry.status}${entry.reason ? `(${entry.reason})` : ''}`;
}

let fake: FakeProviderServer;
let home: string;
beforeEach(async () => {
  fake = await startFakeProvider();
  home = temp('oy-sub-home-');
  cases++;
});
afterEach(async () => {
  await fake.close();
});

const json = ['--format', 'json', '--out', 'out/r.json'];

describe('audit: submodules', () => {
  it('a checked-out submodule is scanned: its committed token gates, its files are reviewed', async () => {
    const { superRepo, token } = makeSubmoduleFixture();
    const result = await runOy(['audit', '--offline', '--fail-on', 'high', ...json], {
      cwd: superRepo,
    });
    expect(result.code, result.stderr).toBe(3);
    const report = readReport(superRepo);
    expect(report.secrets).toEqual([
      { rule: 'github-token', path: 'libs/lib/src/keys.py', line: 1, isTracked: true },
    ]);
    expect(statusOf(report, 'libs/lib/src/handler.py')).toBe('reviewed');
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it("the submodule's files reach the model, redacted", async () => {
    const { superRepo, token, backdoor } = makeSubmoduleFixture();
    fake.enqueue({
      kind: 'answer',
      text: '{"findings": []}',
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    const result = await runOy(['audit', '--model', 'anthropic::claude-haiku-4-5', ...json], {
      cwd: superRepo,
      env: { ...fakeProviderEnv(fake), XDG_CACHE_HOME: path.join(home, 'cache') },
    });
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    const sent = fake.modelCalls.map((call) => call.rawBody).join('\n');
    expect(sent).toContain(backdoor);
    expect(sent).toContain('libs/lib/src/handler.py');
    expect(sent).not.toContain(token);
  });

  it('--no-submodules leaves the files out and counts the submodule as not reviewed', async () => {
    const { superRepo } = makeSubmoduleFixture();
    const result = await runOy(
      ['audit', '--offline', '--no-submodules', '--min-coverage', '1', ...json],
      { cwd: superRepo },
    );
    expect(result.code, result.stderr).toBe(4);
    const report = readReport(superRepo);
    expect(statusOf(report, 'libs/lib/')).toBe('skipped(submodule)');
    expect(report.secrets).toEqual([]);
  });

  it('an uninitialised submodule is listed and counts as not reviewed', async () => {
    const { superRepo } = makeSubmoduleFixture();
    const clone = temp('oy-sub-clone-');
    git(clone, 'clone', '-q', superRepo, 'work');
    const work = path.join(clone, 'work');
    const result = await runOy(['audit', '--offline', '--min-coverage', '1', ...json], {
      cwd: work,
    });
    expect(result.code, result.stderr).toBe(4);
    const report = readReport(work);
    expect(report.coverage.ledger).toContainEqual({
      path: 'libs/lib/',
      status: 'skipped',
      reason: 'submodule-not-checked-out',
      detail: 'run git submodule update --init to audit it',
    });
  });

  it("a submodule's own config runs nothing: fsmonitor, hooks, pager, external diff", async () => {
    const { superRepo } = makeSubmoduleFixture();
    const outside = temp('oy-sub-canary-');
    const canary = path.join(outside, 'canary');
    const script = path.join(outside, 'run.sh');
    writeFileSync(script, `#!/bin/sh\necho ran "$0" "$@" >> '${canary}'\n`);
    chmodSync(script, 0o755);
    const hooks = path.join(outside, 'hooks');
    mkdirSync(hooks);
    for (const hook of [
      'post-checkout',
      'pre-commit',
      'post-index-change',
      'reference-transaction',
    ]) {
      writeFileSync(path.join(hooks, hook), `#!/bin/sh\n'${script}' hook\n`);
      chmodSync(path.join(hooks, hook), 0o755);
    }
    const modules = path.join(superRepo, '.git', 'modules', 'libs', 'lib');
    appendFileSync(
      path.join(modules, 'config'),
      [
        '[core]',
        `\tfsmonitor = ${script}`,
        `\thooksPath = ${hooks}`,
        `\tpager = ${script}`,
        '\tuntrackedCache = true',
        '[diff]',
        `\texternal = ${script}`,
        '[filter "x"]',
        `\tclean = ${script}`,
        `\tsmudge = ${script}`,
        `\tprocess = ${script}`,
        '',
      ].join('\n'),
    );
    write(path.join(superRepo, 'libs', 'lib'), { '.gitattributes': '* filter=x diff=x\n' });
    // A work-tree change in the submodule, so --diff looks inside it too.
    appendFileSync(path.join(superRepo, 'libs', 'lib', 'src', 'handler.py'), '# touched\n');
    for (const extra of [[], ['--diff', 'HEAD']]) {
      const result = await runOy(['audit', '--offline', ...extra, ...json], { cwd: superRepo });
      expect(result.code, result.stderr).toBe(0);
      expect(statusOf(readReport(superRepo), 'libs/lib/src/handler.py')).toBe('reviewed');
    }
    expect(existsSync(canary), existsSync(canary) ? readFileSync(canary, 'utf8') : '').toBe(false);
    // Control: plain git in the submodule does run what its config names (and fails on its answers).
    spawnSync('git', ['status', '--short'], {
      cwd: path.join(superRepo, 'libs', 'lib'),
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    });
    expect(existsSync(canary)).toBe(true);
  });

  it("a submodule whose .git file names a repository outside: nothing of that repository is read, its folder's files are", async () => {
    const { superRepo, token } = makeSubmoduleFixture();
    // Another repository of the user's, outside the workspace: its file names are private too.
    const outside = temp('oy-sub-foreign-');
    const canary = `PRIVATE_${randomBytes(8).toString('hex')}`;
    write(outside, { [`${canary}.txt`]: 'private\n', 'src/keys.py': 'nothing = 1\n' });
    git(outside, 'init', '-q');
    git(outside, 'add', '-A');
    git(outside, 'commit', '-q', '-m', 'foreign');
    const foreignToken = secrets.githubToken('p');
    write(outside, { 'untracked.py': `T = "${foreignToken}"\n` });
    writeFileSync(path.join(superRepo, 'libs', 'lib', '.git'), `gitdir: ${outside}/.git\n`);
    const result = await runOy(
      ['audit', '--offline', '--fail-on', 'high', '--min-coverage', '1', ...json],
      { cwd: superRepo },
    );
    // The submodule's own token, on disk in the workspace, still gates; coverage names the folder.
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/gate: `--min-coverage 1`/);
    const report = readReport(superRepo);
    expect(statusOf(report, 'libs/lib/')).toBe('skipped(submodule-outside)');
    expect(report.secrets.map((secret) => secret.path)).toEqual(['libs/lib/src/keys.py']);
    const everything =
      result.stdout + result.stderr + readFileSync(path.join(superRepo, 'out/r.json'));
    expect(everything).not.toContain(canary);
    expect(everything).not.toContain(foreignToken);
    expect(everything).not.toContain(token);
    // Control: the same .git file read by plain git lists the foreign repository's files.
    expect(git(path.join(superRepo, 'libs', 'lib'), 'ls-files')).toContain(canary);
  });

  it('--diff: a change that moves the submodule to a commit with a token gates; one that leaves it alone does not', async () => {
    const { superRepo, library } = makeSubmoduleFixture();
    git(superRepo, 'checkout', '-q', '-b', 'feature');
    // Leaves the submodule alone: its old token is none of this change's business.
    write(superRepo, { 'src/app.py': 'def app():\n    return 2\n' });
    git(superRepo, 'commit', '-q', '-am', 'unrelated');
    const untouched = await runOy(
      ['audit', '--offline', '--diff', 'main', '--fail-on', 'high', ...json],
      { cwd: superRepo },
    );
    expect(untouched.code, untouched.stderr).toBe(0);
    expect(statusOf(readReport(superRepo), 'libs/lib/src/keys.py')).toBe('skipped(unchanged)');
    // Moves the submodule to a new commit holding a new token.
    const fresh = secrets.githubToken('p');
    write(library, { 'src/extra.py': `SECOND = "${fresh}"\n` });
    git(library, 'add', '-A');
    git(library, 'commit', '-q', '-m', 'extra');
    const sub = path.join(superRepo, 'libs', 'lib');
    git(sub, 'pull', '-q', 'origin', 'main');
    git(superRepo, 'commit', '-q', '-am', 'bump the library');
    const bumped = await runOy(
      ['audit', '--offline', '--diff', 'main', '--fail-on', 'high', ...json],
      { cwd: superRepo },
    );
    expect(bumped.code, bumped.stderr).toBe(3);
    const report = readReport(superRepo);
    expect(report.secrets.map((secret) => secret.path)).toEqual(['libs/lib/src/extra.py']);
    expect(statusOf(report, 'libs/lib/src/keys.py')).toBe('skipped(unchanged)');
    expect(bumped.stdout + bumped.stderr).not.toContain(fresh);
  });
});

describe('audit: hard links', () => {
  function makeLinkedRepo(): { repo: string; key: string; marker: string } {
    const outside = temp('oy-hardlink-home-');
    const key = secrets.awsSecretAccessKey();
    const marker = `CREDENTIALS_${randomBytes(8).toString('hex')}`;
    mkdirSync(path.join(outside, '.aws'));
    const credentials = path.join(outside, '.aws', 'credentials');
    writeFileSync(
      credentials,
      `# ${marker}\n[default]\naws_access_key_id = ${secrets.awsAccessKeyId()}\naws_secret_access_key = ${key}\n`,
    );
    const repo = temp('oy-hardlink-');
    write(repo, { 'src/app.py': 'def app():\n    return 1\n', '.gitignore': 'out/\n' });
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'app');
    // An earlier CI step, or an unpacked archive, left a second name for the credentials inside.
    linkSync(credentials, path.join(repo, 'src', 'settings.txt'));
    return { repo, key, marker };
  }

  it('a hard link to a file outside is never read: not sent, not scanned, counted as not reviewed', async () => {
    const { repo, key, marker } = makeLinkedRepo();
    fake.enqueue({
      kind: 'answer',
      text: '{"findings": []}',
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    const result = await runOy(
      ['audit', '--model', 'anthropic::claude-haiku-4-5', '--min-coverage', '1', ...json],
      { cwd: repo, env: { ...fakeProviderEnv(fake), XDG_CACHE_HOME: path.join(home, 'cache') } },
    );
    expect(result.code, result.stderr).toBe(4);
    fake.assertDone();
    const sent = fake.modelCalls.map((call) => call.rawBody).join('\n');
    expect(sent).toContain('src/app.py');
    expect(sent).not.toContain(marker);
    expect(sent).not.toContain(key);
    const report = readReport(repo);
    expect(statusOf(report, 'src/settings.txt')).toBe('skipped(hard-link)');
    expect(report.secrets).toEqual([]);
    expect(readFileSync(path.join(repo, 'out/r.json'), 'utf8')).not.toContain(marker);
  });

  it('a tracked file replaced by a hard link is not read either; control: a plain copy is', async () => {
    const { repo, key } = makeLinkedRepo();
    const linked = path.join(repo, 'src', 'settings.txt');
    const copy = readFileSync(linked, 'utf8');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'settings');
    const linkedRun = await runOy(['audit', '--offline', '--fail-on', 'high', ...json], {
      cwd: repo,
    });
    expect(linkedRun.code, linkedRun.stderr).toBe(0);
    expect(statusOf(readReport(repo), 'src/settings.txt')).toBe('skipped(hard-link)');
    rmSync(linked);
    writeFileSync(linked, copy);
    const copyRun = await runOy(['audit', '--offline', '--fail-on', 'high', ...json], {
      cwd: repo,
    });
    expect(copyRun.code, copyRun.stderr).toBe(3);
    expect(readReport(repo).secrets.map((secret) => secret.path)).toContain('src/settings.txt');
    expect(copyRun.stdout + copyRun.stderr).not.toContain(key);
  });
});
