import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGitEnvironment } from '../../../src/shared/git/build-git-environment.js';
import {
  buildHardenedGitArgs,
  HARDENED_GIT_CONFIG,
  HARDENED_GIT_VARIABLES,
} from '../../../src/shared/git/git-hardening.js';
import { runGit } from '../../../src/shared/git/run-git.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-run-git-')));
  folders.push(folder);
  return folder;
}

describe('git hardening settings', () => {
  it('pins every setting that can start a program or pick a git directory', () => {
    expect(HARDENED_GIT_CONFIG).toEqual(
      expect.arrayContaining([
        'safe.bareRepository=explicit',
        'core.fsmonitor=false',
        'core.hooksPath=/dev/null',
        'core.attributesFile=/dev/null',
        'core.sshCommand=false',
        'core.askPass=',
        'credential.helper=',
        'protocol.allow=never',
        'protocol.ext.allow=never',
      ]),
    );
    expect(HARDENED_GIT_VARIABLES).toMatchObject({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ASKPASS: '',
      GIT_EDITOR: ':',
      GIT_PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      // No transport at all, whatever protocol.<name>.allow a repository sets; no lazy fetch.
      GIT_ALLOW_PROTOCOL: '',
      GIT_NO_LAZY_FETCH: '1',
      GIT_GRAFT_FILE: '/dev/null',
    });
  });

  it('puts the hardening before the caller settings and the command', () => {
    const args = buildHardenedGitArgs(['ls-files', '-z'], ['core.excludesFile=/x']);
    expect(args.slice(0, 2)).toEqual(['--no-pager', '--no-replace-objects']);
    expect(args.slice(-4)).toEqual(['-c', 'core.excludesFile=/x', 'ls-files', '-z']);
    expect(args.filter((arg) => arg === '-c')).toHaveLength(HARDENED_GIT_CONFIG.length + 1);
  });
});

describe('runGit', () => {
  it('gives git the hardening whatever the caller environment and config files say', async () => {
    const home = tempFolder();
    // A global config the hardened git must not read.
    writeFileSync(path.join(home, '.gitconfig'), '[core]\n\tfsmonitor = /bin/evil\n');
    const env = {
      ...buildGitEnvironment({ PATH: process.env.PATH }, { homeDir: home }),
      GIT_PAGER: 'less',
      GIT_CONFIG_NOSYSTEM: '0',
    };
    const listed = await runGit(['config', '--list', '--show-scope'], { cwd: home, env });
    expect(listed.ok).toBe(true);
    const text = listed.ok ? listed.stdout.toString('utf8') : '';
    expect(text).toContain('command\tsafe.barerepository=explicit');
    expect(text).toContain('command\tcore.hookspath=/dev/null');
    expect(text).not.toMatch(/^global/m);
    expect(text).not.toContain('/bin/evil');
  });

  it('refuses a bare repository it was not pointed at', async () => {
    const bare = tempFolder();
    const init = await runGit(['init', '-q', '--bare', bare], {
      cwd: bare,
      env: buildGitEnvironment({ PATH: process.env.PATH }, {}),
    });
    expect(init.ok).toBe(true);
    const discovered = await runGit(['rev-parse', '--git-dir'], {
      cwd: bare,
      env: buildGitEnvironment({ PATH: process.env.PATH }, {}),
    });
    expect(discovered.ok).toBe(false);
    expect(discovered.ok ? '' : discovered.stderr).toMatch(/cannot use bare repository/);
  });

  it('runs git found on an absolute PATH entry only', async () => {
    const work = tempFolder();
    const fakeBin = path.join(work, 'bin');
    mkdirSync(fakeBin);
    writeFileSync(path.join(fakeBin, 'git'), '#!/bin/sh\necho fake\n');
    chmodSync(path.join(fakeBin, 'git'), 0o755);
    const env = buildGitEnvironment({ PATH: `bin:${process.env.PATH ?? ''}` }, {});
    const version = await runGit(['--version'], { cwd: work, env });
    expect(version.ok && version.stdout.toString()).toMatch(/^git version/);
    const onlyRelative = await runGit(['--version'], {
      cwd: work,
      env: buildGitEnvironment({ PATH: 'bin' }, {}),
    });
    expect(onlyRelative).toMatchObject({
      ok: false,
      reason: 'git not found on an absolute PATH entry',
    });
  });
});
