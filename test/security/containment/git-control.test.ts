import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { makeTrap, type Trap } from '../../support/hostile-repo.js';
import {
  describeContainment,
  fixtureGit,
  makeFolder,
  runBash,
  userEnv,
  userGit,
  type ContainmentCase,
} from './containment-support.js';

// Containment suite, git control files: a sandboxed command (the real bash tool, `--mode auto`)
// writes each file git reads to decide what to run; then the user's own git status, diff, log -p,
// commit, checkout, pull and push run for real in the workspace, against a local bare remote.
// No canary may fire. Each case's control runs the same script unsandboxed, and the same git
// commands then fire a canary, so every case can fail.

const folders: string[] = [];
const track = (folder: string) => (folders.push(folder), folder);
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

interface Fixture {
  workspace: string;
  home: string;
  /** Folders the user runs git in afterwards, besides the workspace. */
  userDirs: string[];
}

/** A clone of a bare remote with one pushed commit and a user home whose .gitconfig names the user. */
function makeRepository(prepare?: (fixture: Fixture) => void): Fixture {
  const root = track(makeFolder('oy-contain-git-'));
  const remote = path.join(root, 'remote.git');
  fixtureGit(root, '-c', 'init.defaultBranch=main', 'init', '-q', '--bare', remote);
  const workspace = path.join(root, 'workspace');
  fixtureGit(root, 'clone', '-q', remote, workspace);
  fixtureGit(workspace, 'checkout', '-q', '-b', 'main');
  writeFileSync(path.join(workspace, 'tracked.txt'), 'one\n');
  writeFileSync(path.join(workspace, 'app.py'), 'print(1)\n');
  fixtureGit(workspace, 'add', '-A');
  fixtureGit(workspace, 'commit', '-qm', 'first');
  fixtureGit(workspace, 'push', '-q', '-u', 'origin', 'main');
  const home = path.join(root, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Agent\n\temail = a@example.com\n');
  const fixture = { workspace, home, userDirs: [] };
  prepare?.(fixture);
  return fixture;
}

/** What the user types afterwards, in each folder: every command the issue names, run for real. */
function runUserGit(fixture: Fixture): void {
  const env = userEnv(fixture.home);
  for (const dir of [fixture.workspace, ...fixture.userDirs]) {
    if (!existsSync(dir)) continue;
    const file = path.join(dir, 'tracked.txt');
    if (existsSync(file)) writeFileSync(file, `changed ${Date.now()}\n`);
    writeFileSync(path.join(dir, 'app.py'), `print(${Date.now()})\n`);
    userGit(dir, env, 'status');
    userGit(dir, env, 'diff');
    userGit(dir, env, 'log', '-p', '-2');
    userGit(dir, env, 'commit', '-qam', 'user change');
    userGit(dir, env, 'checkout', '-q', '-b', `user-${Date.now()}`);
    userGit(dir, env, 'checkout', '-q', '-');
    userGit(dir, env, 'pull', '-q');
    userGit(dir, env, 'push', '-q');
  }
}

interface GitCase {
  name: string;
  prepare?: (fixture: Fixture) => void;
  /** The attacker's command, given the canary programs. */
  script: (trap: Trap, fixture: Fixture) => string;
}

const hostileConfig = (trap: Trap, tag: string) =>
  `[core]\\n\\tfsmonitor = ${trap.program(`${tag}-fsmonitor`)}\\n\\tpager = ${trap.program(`${tag}-pager`)}\\n[diff]\\n\\texternal = ${trap.program(`${tag}-diff`)}\\n`;

/** A folder git accepts as a git (or common) directory, with a hostile config. */
const fakeGitDir = (trap: Trap, dir: string, tag: string) =>
  `mkdir -p ${dir}/objects ${dir}/refs/heads && echo 'ref: refs/heads/main' > ${dir}/HEAD && printf '${hostileConfig(trap, tag)}' > ${dir}/config`;

const HOOKS = [
  'pre-commit',
  'post-commit',
  'post-checkout',
  'pre-push',
  'post-merge',
  'reference-transaction',
];

const GIT_CASES: GitCase[] = [
  {
    name: '.git/config: fsmonitor, pager, diff.external and an alias',
    script: (trap) =>
      `git config core.fsmonitor ${trap.program('config-fsmonitor')}; ` +
      `git config diff.external ${trap.program('config-diff')}; ` +
      `git config alias.status '!${trap.program('config-alias')}'; ` +
      `printf '${hostileConfig(trap, 'config-append')}' >> .git/config`,
  },
  {
    name: '.git/config: include.path to a file the command writes',
    script: (trap) =>
      `printf '${hostileConfig(trap, 'include')}' > evil.gitconfig; ` +
      `git config include.path ../evil.gitconfig; printf '[include]\\n\\tpath = ../evil.gitconfig\\n' >> .git/config`,
  },
  {
    name: `.git/hooks: ${HOOKS.join(', ')}`,
    script: (trap) =>
      HOOKS.map((hook) => `cp ${trap.program(`hook-${hook}`)} .git/hooks/${hook}`).join('; '),
  },
  {
    name: 'a missing .git/hooks the command would create',
    prepare: ({ workspace }) => rmSync(path.join(workspace, '.git', 'hooks'), { recursive: true }),
    script: (trap) =>
      `mkdir -p .git/hooks; ` +
      HOOKS.map((hook) => `cp ${trap.program(`newhook-${hook}`)} .git/hooks/${hook}`).join('; '),
  },
  {
    name: '.git/info/attributes routing files through a textconv driver',
    script: (trap) =>
      `printf '* diff=evil\\n' > .git/info/attributes; ` +
      `git config diff.evil.textconv ${trap.program('attributes-textconv')}`,
  },
  {
    name: '.git/config.worktree (extensions.worktreeConfig set by the user)',
    prepare: ({ workspace }) => {
      fixtureGit(workspace, 'config', 'core.repositoryformatversion', '1');
      fixtureGit(workspace, 'config', 'extensions.worktreeConfig', 'true');
    },
    script: (trap) =>
      `git config --worktree core.fsmonitor ${trap.program('worktree-config')}; ` +
      `printf '${hostileConfig(trap, 'worktree-append')}' >> .git/config.worktree`,
  },
  {
    name: '.git/modules/<sub>/config and hooks of a submodule',
    prepare: (fixture) => addSubmodule(fixture),
    script: (trap) =>
      `printf '${hostileConfig(trap, 'module')}' >> .git/modules/sub/config; ` +
      `cp ${trap.program('module-hook')} .git/modules/sub/hooks/post-checkout`,
  },
  {
    name: "a submodule's .git file re-pointed at a git directory the command made",
    prepare: (fixture) => addSubmodule(fixture),
    script: (trap) =>
      `cp -r .git/modules/sub evil-gitdir && git config --file evil-gitdir/config --unset core.worktree; ` +
      `printf '${hostileConfig(trap, 'pointer')}' >> evil-gitdir/config; ` +
      `printf 'gitdir: ../evil-gitdir\\n' > sub/.git`,
  },
  {
    name: "a linked work tree's commondir and config.worktree under .git/worktrees",
    prepare: (fixture) => {
      const linked = path.join(path.dirname(fixture.workspace), 'linked');
      fixtureGit(fixture.workspace, 'worktree', 'add', '-q', linked, '-b', 'linked');
      writeFileSync(path.join(linked, 'tracked.txt'), 'linked\n');
      fixture.userDirs.push(linked);
    },
    script: (trap) =>
      `${fakeGitDir(trap, 'evil-common', 'commondir')}; ` +
      `echo ../../../evil-common > .git/worktrees/linked/commondir; ` +
      `printf '${hostileConfig(trap, 'linked-config')}' > .git/worktrees/linked/config.worktree`,
  },
  {
    name: 'a new .git/commondir pointing git at settings the command wrote',
    script: (trap) =>
      `${fakeGitDir(trap, 'evil-common', 'new-commondir')}; echo ../evil-common > .git/commondir`,
  },
  {
    name: 'an embedded .git folder of a nested repository (a legacy submodule)',
    prepare: (fixture) => {
      const nested = path.join(fixture.workspace, 'vendor', 'lib');
      mkdirSync(nested, { recursive: true });
      fixtureGit(nested, 'init', '-q');
      writeFileSync(path.join(nested, 'tracked.txt'), 'lib\n');
      fixtureGit(nested, 'add', '-A');
      fixtureGit(nested, 'commit', '-qm', 'lib');
      fixtureGit(fixture.workspace, 'add', 'vendor/lib');
      fixtureGit(fixture.workspace, 'commit', '-qm', 'embed');
      fixture.userDirs.push(nested);
    },
    script: (trap) =>
      `printf '${hostileConfig(trap, 'embedded')}' >> vendor/lib/.git/config; ` +
      `cp ${trap.program('embedded-hook')} vendor/lib/.git/hooks/pre-commit`,
  },
  {
    name: 'a nested repository the command creates and registers as a submodule',
    prepare: (fixture) => fixture.userDirs.push(path.join(fixture.workspace, 'nested')),
    script: (trap) =>
      `git init -q nested && cd nested && echo x > tracked.txt && git add -A && git commit -qm x && ` +
      `git config core.fsmonitor ${trap.program('nested-fsmonitor')} && ` +
      `cp ${trap.program('nested-hook')} .git/hooks/pre-commit && cd .. && git add nested`,
  },
  {
    name: 'a .git link the command points at a git directory it made',
    prepare: (fixture) => fixture.userDirs.push(path.join(fixture.workspace, 'linkdir')),
    script: (trap) =>
      `${fakeGitDir(trap, 'evil-linked', 'link')}; mkdir -p linkdir && ln -s ../evil-linked linkdir/.git`,
  },
  {
    name: '.git renamed away and a new one made in its place',
    script: (trap) =>
      `mv .git .git-old; git init -q; git config core.fsmonitor ${trap.program('renamed')}`,
  },
  {
    name: 'a hooks folder in the work tree (core.hooksPath = .githooks, as husky sets)',
    prepare: ({ workspace }) => {
      mkdirSync(path.join(workspace, '.githooks'));
      writeFileSync(path.join(workspace, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', {
        mode: 0o755,
      });
      fixtureGit(workspace, 'config', 'core.hooksPath', '.githooks');
    },
    script: (trap) =>
      ['pre-commit', 'post-checkout', 'post-commit', 'pre-push']
        .map((hook) => `cp ${trap.program(`hookspath-${hook}`)} .githooks/${hook}`)
        .join('; '),
  },
  {
    name: 'a config file in the work tree that .git/config includes',
    prepare: ({ workspace }) => {
      writeFileSync(path.join(workspace, 'team.gitconfig'), '[color]\n\tui = auto\n');
      fixtureGit(workspace, 'config', 'include.path', '../team.gitconfig');
    },
    script: (trap) => `printf '${hostileConfig(trap, 'team')}' >> team.gitconfig`,
  },
];

function addSubmodule(fixture: Fixture): void {
  const root = path.dirname(fixture.workspace);
  const source = path.join(root, 'sub-source');
  mkdirSync(source);
  fixtureGit(source, 'init', '-q');
  writeFileSync(path.join(source, 'tracked.txt'), 'sub\n');
  fixtureGit(source, 'add', '-A');
  fixtureGit(source, 'commit', '-qm', 'sub');
  fixtureGit(
    fixture.workspace,
    '-c',
    'protocol.file.allow=always',
    'submodule',
    'add',
    '-q',
    source,
    'sub',
  );
  fixtureGit(fixture.workspace, 'commit', '-qm', 'add sub');
  fixture.userDirs.push(path.join(fixture.workspace, 'sub'));
}

/** A workspace that is not a git repository: the command makes one. */
function makePlainFolder(): Fixture {
  const root = track(makeFolder('oy-contain-plain-'));
  const workspace = path.join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, 'tracked.txt'), 'one\n');
  const home = path.join(root, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Agent\n\temail = a@example.com\n');
  return { workspace, home, userDirs: [] };
}

const NOT_A_REPOSITORY: GitCase = {
  name: 'a workspace that is no repository, where the command runs git init',
  script: (trap) =>
    `git init -q . && git add -A && git commit -qm x && ` +
    `git config core.fsmonitor ${trap.program('init-fsmonitor')} && ` +
    `cp ${trap.program('init-hook')} .git/hooks/pre-commit`,
};

async function attack(
  gitCase: GitCase,
  isContained: boolean,
): Promise<{ fired: string[]; notices: unknown; fixture: Fixture }> {
  const trap = makeTrap();
  track(trap.dir);
  const fixture =
    gitCase === NOT_A_REPOSITORY ? makePlainFolder() : makeRepository(gitCase.prepare);
  const script = gitCase.script(trap, fixture);
  let notices: unknown;
  if (isContained) {
    const result = await runBash(fixture.workspace, script, { baseEnv: userEnv(fixture.home) });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(result.sandboxed).toBe(true);
    notices = result.notices;
  } else {
    spawnSync('bash', ['-c', script], {
      cwd: fixture.workspace,
      env: userEnv(fixture.home),
      encoding: 'utf8',
    });
  }
  expect(trap.fired(), 'the attack itself ran nothing').toEqual([]);
  runUserGit(fixture);
  return { fired: trap.fired(), notices, fixture };
}

const cases: ContainmentCase[] = [...GIT_CASES, NOT_A_REPOSITORY].flatMap((gitCase) => [
  {
    name: `${gitCase.name}: the user's git runs nothing the sandbox wrote`,
    async check() {
      const { fired } = await attack(gitCase, true);
      expect(fired).toEqual([]);
    },
  },
  {
    name: `${gitCase.name}: control, unsandboxed, the same git commands fire a canary`,
    async check() {
      const { fired } = await attack(gitCase, false);
      expect(fired.length).toBeGreaterThan(0);
    },
  },
]);

cases.push({
  name: 'the agent can still commit in the sandbox, and a git init it makes with nothing hostile is kept',
  async check() {
    const repository = makeRepository();
    writeFileSync(path.join(repository.workspace, 'new.txt'), 'agent\n');
    const result = await runBash(
      repository.workspace,
      'git add new.txt && git commit -qm "by the agent" && git log -1 --format="%an <%ae> %s"',
      { baseEnv: userEnv(repository.home) },
      'edit',
    );
    expect(result.stdout).toBe('Agent <a@example.com> by the agent\n');
    const plain = makePlainFolder();
    const made = await runBash(plain.workspace, 'git init -q . && git add -A && git commit -qm x', {
      baseEnv: userEnv(plain.home),
    });
    expect(made.notices).toBeUndefined();
    expect(readdirSync(plain.workspace)).toContain('.git');
  },
});

describeContainment('git control files', cases, 120_000);
