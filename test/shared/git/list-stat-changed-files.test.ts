import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  mkdirSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGitEnvironment } from '../../../src/shared/git/build-git-environment.js';
import { listStatChangedFiles } from '../../../src/shared/git/list-stat-changed-files.js';
import {
  addGitConfigEntries,
  readUserGitSettings,
} from '../../../src/shared/git/read-user-git-settings.js';
import { commitAll } from '../../support/git-fixture.js';

let root: string;
const env = buildGitEnvironment({ PATH: process.env.PATH }, {});
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-stat-changed-')));
  mkdirSync(path.join(root, 'sub'));
  for (const name of ['same.txt', 'edit.txt', 'gone.txt', 'touch.txt', 'sub/inner.txt']) {
    writeFileSync(path.join(root, name), `${name}\n`);
  }
  commitAll(root);
  // Files older than the index, so none is racy: only real stat changes count.
  const past = new Date(Date.now() - 3_600_000);
  for (const name of ['same.txt', 'edit.txt', 'gone.txt', 'touch.txt', 'sub/inner.txt']) {
    utimesSync(path.join(root, name), past, past);
  }
  git('update-index', '--refresh');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('listStatChangedFiles', () => {
  it('reports edited, deleted and touched files from stat data alone', async () => {
    expect(await listStatChangedFiles(root, env)).toEqual([]);
    writeFileSync(path.join(root, 'edit.txt'), 'edited, longer\n');
    unlinkSync(path.join(root, 'gone.txt'));
    const later = new Date(Date.now() - 1_800_000);
    utimesSync(path.join(root, 'touch.txt'), later, later);
    expect((await listStatChangedFiles(root, env))?.sort()).toEqual([
      'edit.txt',
      'gone.txt',
      'touch.txt',
    ]);
  });

  it('lists paths relative to a subfolder it runs in, and a folder turned symlink as changed', async () => {
    writeFileSync(path.join(root, 'sub/inner.txt'), 'changed inside\n');
    expect(await listStatChangedFiles(path.join(root, 'sub'), env)).toEqual(['inner.txt']);
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-stat-outside-')));
    writeFileSync(path.join(outside, 'inner.txt'), 'sub/inner.txt\n');
    rmSync(path.join(root, 'sub'), { recursive: true });
    symlinkSync(outside, path.join(root, 'sub'));
    expect(await listStatChangedFiles(root, env)).toEqual(['sub/inner.txt']);
    rmSync(outside, { recursive: true, force: true });
  });

  it('never runs a clean filter, where git status does', async () => {
    const canary = path.join(root, '..', `${path.basename(root)}-canary`);
    const filter = path.join(root, '..', `${path.basename(root)}-filter.sh`);
    writeFileSync(filter, `#!/bin/sh\ntouch '${canary}'\ncat\n`);
    chmodSync(filter, 0o755);
    git('config', 'filter.trap.clean', filter);
    writeFileSync(path.join(root, '.git', 'info', 'attributes'), '* filter=trap\n');
    const later = new Date(Date.now() - 1_800_000);
    utimesSync(path.join(root, 'same.txt'), later, later);
    expect(await listStatChangedFiles(root, env)).toEqual(['same.txt']);
    expect(existsSync(canary)).toBe(false);
    // Control: git status hashes the stat-dirty file through the filter.
    git('status', '--porcelain');
    expect(existsSync(canary)).toBe(true);
    rmSync(canary);
    rmSync(filter);
  });
});

describe('readUserGitSettings', () => {
  it('passes on the global excludes file and every safe.directory, read as text', async () => {
    const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-user-git-')));
    mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'git', 'config'), '[safe]\n\tdirectory = /a\n');
    writeFileSync(
      path.join(home, '.gitconfig'),
      '[core]\n\texcludesFile = ~/ignores\n\tfsmonitor = /bin/evil\n[safe]\n\tdirectory = *\n',
    );
    const settings = await readUserGitSettings({ homeDir: home }, root);
    expect(settings).toEqual([
      `core.excludesFile=${path.join(home, 'ignores')}`,
      'safe.directory=/a',
      'safe.directory=*',
    ]);
    expect(addGitConfigEntries({ PATH: '/bin' }, settings)).toMatchObject({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_0: 'core.excludesFile',
      GIT_CONFIG_VALUE_2: '*',
    });
    rmSync(home, { recursive: true, force: true });
  });
});
