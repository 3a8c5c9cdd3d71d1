import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/agent/checkpoint/checkpoints.js';
import { probeSandbox } from '../../src/agent/shell/sandbox.js';
import { readCandidate } from '../../src/audit/collect/read-candidate.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import {
  HOSTILE_ATTRIBUTES,
  makeClonedBareLayout,
  makeConfiguredRepo,
  makeGitFileRepo,
  makeSymlinkedIndexRepo,
  makeTempFolder,
  makeTrap,
  plainGit,
  tryPlainGit,
  writeFakeTools,
  writeHostileConfig,
  type Trap,
} from '../support/hostile-repo.js';
import { OY_BIN, runOy, type OyRun } from '../support/run-oy.js';
import { hasTmux, startTmux, type TmuxTerminal } from '../support/tmux.js';

/**
 * Opening a repository runs none of its code: every program a hostile repository can name to git
 * is a canary that must stay silent through `oy audit` (offline, --diff, with a model), `oy run`,
 * undo, `oy chat` and `oy doctor`; files outside the workspace reached through a symlinked folder
 * must not be read. Each fixture has a control proving plain git does run (or read) the canary.
 */
const MODEL = 'anthropic::claude-haiku-4-5';
const folders: string[] = [];
let trap: Trap;
let fake: FakeProviderServer;
let cases = 0;
let reports = 0;

beforeAll(async () => {
  trap = makeTrap();
  folders.push(trap.dir);
  fake = await startFakeProvider();
});
afterEach(() => {
  cases++;
  trap.reset();
});
afterAll(async () => {
  await fake.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  console.log(`hostile repository: ${cases} cases`);
});

function track(folder: string): string {
  folders.push(folder);
  return folder;
}

function oy(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<OyRun> {
  return runOy(args, { cwd, env: { ...fakeProviderEnv(fake), ...env } });
}

async function auditJson(cwd: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const out = `oy-report-${++reports}.json`;
  const result = await oy(cwd, ['audit', '--format', 'json', '--out', out, ...args], env);
  expect(result.code, result.stderr).toBe(0);
  const written = path.join(cwd, args[0]?.startsWith('-') === false ? args[0] : '', out);
  const text = readFileSync(written, 'utf8');
  rmSync(written);
  return { result, text };
}

/** A model-backed audit against its own fake provider; returns every request body sent. */
async function auditWithModel(cwd: string, args: string[] = []): Promise<string> {
  const own = await startFakeProvider();
  try {
    own.enqueue(...Array.from({ length: 8 }, () => reply.text('{"findings": []}')));
    const out = `oy-report-${++reports}.json`;
    const result = await runOy(
      ['audit', '--model', MODEL, '--format', 'json', '--out', out, ...args],
      {
        cwd,
        env: fakeProviderEnv(own),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    rmSync(path.join(cwd, out));
    expect(own.modelCalls.length).toBeGreaterThan(0);
    return JSON.stringify(own.modelCalls.map((call) => call.body));
  } finally {
    await own.close();
  }
}

/** `oy run --mode auto` with one approved-by-mode command; returns the run's output. */
async function runCommand(cwd: string, command: string, env: NodeJS.ProcessEnv = {}) {
  fake.enqueue(reply.toolCall('bash', { command }), reply.text('Done.'));
  const result = await oy(cwd, ['run', '--mode', 'auto', '--model', MODEL, 'run it'], env);
  expect(result.code, result.stderr).toBe(0);
  fake.assertDone();
  return result;
}

/** Snapshot before a command, change a file, undo: through the checkpoint API oy chat uses. */
async function snapshotChangeUndo(root: string, file: string): Promise<void> {
  const checkpoints = new Checkpoints({ workspaceRoot: root, env: process.env });
  const before = readFileSync(path.join(root, file), 'utf8');
  checkpoints.beginTurn(1);
  await checkpoints.beforeCommand();
  writeFileSync(path.join(root, file), 'changed by the command\n');
  const undone = await checkpoints.undoLastTurn();
  await checkpoints.dispose();
  expect(undone?.failed).toBeUndefined();
  expect(undone?.restored).toContain(file);
  expect(readFileSync(path.join(root, file), 'utf8')).toBe(before);
}

/** `oy chat` in a real terminal: one approved command, then /undo. */
async function chatOneCommand(cwd: string, command: string): Promise<string> {
  fake.enqueue(reply.toolCall('bash', { command }), reply.text('Listed.'));
  let terminal: TmuxTerminal | undefined;
  try {
    terminal = await startTmux({
      command: [process.execPath, OY_BIN, 'chat', '--model', MODEL],
      cwd,
      env: { ...process.env, ...fakeProviderEnv(fake), TERM: 'xterm-256color', NO_COLOR: '1' },
    });
    await terminal.waitForPrompt(1);
    await terminal.submit('list the files');
    await terminal.waitFor(/Allow\? \[y\]es/);
    await terminal.submit('y');
    await terminal.waitForPrompt(2);
    await terminal.submit('/undo');
    const screen = await terminal.waitForPrompt(3);
    fake.assertDone();
    return screen;
  } finally {
    await terminal?.kill();
  }
}

describe('a repository whose .git/config, hooks and attributes name programs', () => {
  let root: string;
  beforeAll(() => {
    root = track(makeConfiguredRepo(trap));
  });

  it('control: plain git runs the filters, fsmonitor, includes, textconv and external diff', () => {
    tryPlainGit(root, 'status', '--porcelain');
    tryPlainGit(root, 'diff');
    tryPlainGit(root, 'diff', '--no-ext-diff', 'HEAD');
    expect(trap.fired()).toEqual(
      expect.arrayContaining([
        'fsmonitor',
        'filter-clean',
        'filter-smudge',
        'filter-process',
        'include-clean',
        'includeif-clean',
        'diff-external',
        'textconv',
      ]),
    );
    // Hooks, in a copy of the fixture, since committing changes it.
    const copy = track(makeConfiguredRepo(trap));
    trap.reset();
    tryPlainGit(
      copy,
      '-c',
      'user.name=x',
      '-c',
      'user.email=x@x',
      'commit',
      '-qm',
      'x',
      '--allow-empty',
    );
    expect(trap.fired()).toEqual(expect.arrayContaining(['hook-pre-commit', 'hook-post-commit']));
  });

  it('oy audit --offline runs none of them and still lists through git', async () => {
    const { text } = await auditJson(root, ['--offline']);
    expect(trap.fired()).toEqual([]);
    const report = JSON.parse(text) as { git?: { commit?: string | null; isDirty?: boolean } };
    expect(JSON.stringify(report)).toContain('app.py');
    expect(text).toMatch(/"dirty"\s*:\s*true|"isDirty"\s*:\s*true/);
  });

  it('oy audit --offline --diff HEAD runs none of them', async () => {
    const { text } = await auditJson(root, ['--offline', '--diff', 'HEAD']);
    expect(trap.fired()).toEqual([]);
    expect(text).toContain('app.py');
  });

  it('oy audit with the fake model runs none of them', async () => {
    const sent = await auditWithModel(root);
    expect(sent).toContain('app.py');
    expect(trap.fired()).toEqual([]);
  });

  it('oy run --mode auto: the snapshot before a command runs none of them', async () => {
    const result = await runCommand(root, 'ls');
    expect(result.stdout).toContain('Done.');
    expect(trap.fired()).toEqual([]);
  });

  it('snapshot, change and undo through the checkpoint API run none of them', async () => {
    await snapshotChangeUndo(root, 'notes.md');
    expect(trap.fired()).toEqual([]);
  });

  it.skipIf(!hasTmux)('oy chat: an approved command and /undo run none of them', async () => {
    const screen = await chatOneCommand(root, 'ls');
    expect(screen).toContain('Listed.');
    expect(trap.fired()).toEqual([]);
  });

  it('oy doctor runs none of them', async () => {
    const result = await oy(root, ['doctor']);
    expect(result.stdout + result.stderr).toMatch(/git/);
    expect(trap.fired()).toEqual([]);
  });
});

describe('a bare-repository layout committed in pkg/ and cloned', () => {
  let clone: string;
  let pkg: string;
  beforeAll(() => {
    clone = track(makeClonedBareLayout(trap));
    pkg = path.join(clone, 'pkg');
  });

  it('control: plain git in pkg/ takes it as its git directory and runs its programs', () => {
    expect(existsSync(path.join(pkg, 'HEAD'))).toBe(true);
    tryPlainGit(pkg, '-c', 'safe.bareRepository=all', 'status', '--porcelain');
    expect(trap.fired()).toEqual(expect.arrayContaining(['fsmonitor', 'include-clean']));
  });

  it('oy audit pkg --offline (the Action path: input) runs none of them', async () => {
    const { text } = await auditJson(clone, ['pkg', '--offline']);
    expect(text).toContain('app.py');
    expect(trap.fired()).toEqual([]);
  });

  it('oy audit --offline --diff HEAD inside pkg/ runs none of them', async () => {
    await oy(pkg, ['audit', '--offline', '--diff', 'HEAD', '--out', 'diff-report.md']);
    rmSync(path.join(pkg, 'diff-report.md'), { force: true });
    expect(trap.fired()).toEqual([]);
  });

  it('oy run --mode auto with a command in pkg/ runs none of them', async () => {
    await runCommand(pkg, 'ls');
    expect(trap.fired()).toEqual([]);
  });

  it('snapshot and undo in pkg/ through the checkpoint API run none of them', async () => {
    await snapshotChangeUndo(pkg, 'notes.md');
    expect(trap.fired()).toEqual([]);
  });

  it.skipIf(!hasTmux)('oy chat in pkg/: an approved ls and /undo run none of them', async () => {
    const screen = await chatOneCommand(pkg, 'ls');
    expect(screen).toContain('Listed.');
    expect(trap.fired()).toEqual([]);
  });

  it('oy doctor in pkg/ runs none of them', async () => {
    await oy(pkg, ['doctor']);
    expect(trap.fired()).toEqual([]);
  });
});

describe('.git as a file naming a hostile git directory elsewhere', () => {
  let root: string;
  beforeAll(() => {
    root = track(makeGitFileRepo(trap));
  });

  it('control: plain git follows the file and runs the other directory’s programs', () => {
    tryPlainGit(root, 'status', '--porcelain');
    expect(trap.fired()).toEqual(expect.arrayContaining(['fsmonitor', 'filter-process']));
  });

  it('oy audit --offline runs none of them', async () => {
    const { text } = await auditJson(root, ['--offline']);
    expect(text).toContain('main.js');
    expect(trap.fired()).toEqual([]);
  });

  it('oy audit --offline --diff HEAD runs none of them', async () => {
    await auditJson(root, ['--offline', '--diff', 'HEAD']);
    expect(trap.fired()).toEqual([]);
  });

  it('oy run --mode auto with a command runs none of them', async () => {
    await runCommand(root, 'ls');
    expect(trap.fired()).toEqual([]);
  });

  it('snapshot and undo through the checkpoint API run none of them', async () => {
    await snapshotChangeUndo(root, 'data.txt');
    expect(trap.fired()).toEqual([]);
  });

  it('oy doctor runs none of them', async () => {
    await oy(root, ['doctor']);
    expect(trap.fired()).toEqual([]);
  });
});

describe('git config written by a command before the next snapshot', () => {
  let root: string;
  beforeAll(() => {
    root = track(makeTempFolder('oy-written-config-'));
    writeFileSync(path.join(root, 'app.py'), 'print(1)\n');
    plainGit(root, 'init', '-q');
    plainGit(
      root,
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
  });

  it('oy run --mode auto: a command configures a filter; the next run’s snapshot runs none of it', async () => {
    const clean = trap.program('written-clean');
    await runCommand(
      root,
      `git config filter.w.clean ${clean}; printf '* filter=w\\n' > .gitattributes && touch app.py`,
    );
    // Inside bwrap .git/config is read-only (test/security/containment/); elsewhere the command writes it.
    if (!(await probeSandbox(process.env)).available)
      expect(readFileSync(path.join(root, '.git', 'config'), 'utf8')).toContain(clean);
    else
      writeHostileConfig(
        trap,
        path.join(root, '.git', 'config'),
        `[filter "w"]\n\tclean = ${clean}\n`,
      );
    await runCommand(root, 'ls');
    expect(trap.fired()).toEqual([]);
    // Control: the configuration the command wrote does run under plain git.
    tryPlainGit(root, 'add', '-A', '--dry-run');
    tryPlainGit(root, 'status', '--porcelain');
    expect(trap.fired()).toContain('written-clean');
  });

  it('checkpoint API: config written between two turns, then undo, runs none of it', async () => {
    const checkpoints = new Checkpoints({ workspaceRoot: root, env: process.env });
    checkpoints.beginTurn(1);
    await checkpoints.beforeCommand();
    writeHostileConfig(trap, path.join(root, '.git', 'config'));
    writeFileSync(path.join(root, '.gitattributes'), HOSTILE_ATTRIBUTES + '* filter=w\n');
    checkpoints.beginTurn(2);
    await checkpoints.beforeCommand();
    writeFileSync(path.join(root, 'app.py'), 'print(2)\n');
    const undone = await checkpoints.undoLastTurn();
    await checkpoints.dispose();
    expect(undone?.restored).toContain('app.py');
    expect(readFileSync(path.join(root, 'app.py'), 'utf8')).not.toBe('print(2)\n');
    expect(trap.fired()).toEqual([]);
  });
});

describe('a bare layout written by the file tools at the root of a workspace without .git', () => {
  let root: string;
  beforeAll(() => {
    root = track(makeTempFolder('oy-written-bare-'));
    writeFileSync(path.join(root, 'app.py'), 'print(1)\n');
  });

  it('oy run --mode auto writes HEAD, config, objects/, refs/, then a command runs none of it', async () => {
    const config = path.join(track(makeTempFolder('oy-bare-config-')), 'config');
    writeHostileConfig(
      trap,
      config,
      '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n',
    );
    const write = (file: string, content: string) =>
      reply.toolCall('write', { path: file, content });
    fake.enqueue(
      write('HEAD', 'ref: refs/heads/main\n'),
      write('config', readFileSync(config, 'utf8')),
      write('objects/info/keep', ''),
      write('refs/heads/keep', ''),
      write('.gitattributes', HOSTILE_ATTRIBUTES),
      reply.toolCall('bash', { command: 'ls' }),
      reply.text('Done.'),
    );
    const result = await oy(root, ['run', '--mode', 'auto', '--model', MODEL, 'set it up']);
    expect(result.code, result.stderr).toBe(0);
    fake.assertDone();
    expect(readFileSync(path.join(root, 'config'), 'utf8')).toContain('fsmonitor');
    expect(trap.fired()).toEqual([]);
  });

  it('oy audit --offline on it runs none of it', async () => {
    await auditJson(root, ['--offline']);
    expect(trap.fired()).toEqual([]);
  });

  it('control: plain git takes the workspace as a git directory and runs its programs', () => {
    // What the snapshot did before: discover the repository, then add everything.
    tryPlainGit(root, '-c', 'safe.bareRepository=all', 'add', '-A');
    expect(trap.fired()).toEqual(expect.arrayContaining(['fsmonitor', 'filter-clean']));
  });
});

describe('an index listing files under a symlinked folder outside the workspace', () => {
  const marker = `OUTSIDE_CANARY_${Math.random().toString(36).slice(2)}`;
  let root: string;
  let outside: string;
  beforeAll(() => {
    outside = track(makeTempFolder('oy-outside-'));
    root = track(makeSymlinkedIndexRepo(outside, marker));
  });

  it('control: git lists the file and a plain read through the link reaches the outside', () => {
    expect(plainGit(root, 'ls-files')).toContain('linkdir/canary.py');
    expect(readFileSync(path.join(root, 'linkdir', 'canary.py'), 'utf8')).toContain(marker);
  });

  it('oy audit --offline records skipped(symlink) and never reads it', async () => {
    const { text } = await auditJson(root, ['--offline']);
    expect(text).not.toContain(marker);
    const report = JSON.parse(text) as { ledger?: { path: string; status: string }[] };
    const entry = JSON.stringify(report).match(/\{[^{}]*"linkdir\/canary\.py"[^{}]*\}/)?.[0];
    expect(entry).toMatch(/symlink/);
  });

  it('oy audit --offline --diff HEAD records skipped(symlink) and never reads it', async () => {
    const { text } = await auditJson(root, ['--offline', '--diff', 'HEAD']);
    expect(text).not.toContain(marker);
    expect(text).toMatch(/linkdir\/canary\.py[^{}]*symlink|symlink[^{}]*linkdir\/canary\.py/);
  });

  it('oy audit with the fake model sends none of it to the model', async () => {
    const sent = await auditWithModel(root);
    expect(sent).toContain('main.py');
    expect(sent).not.toContain(marker);
  });

  it('a folder swapped for a symlink after listing is refused at read time', async () => {
    const absolutePath = path.join(root, 'linkdir', 'canary.py');
    const read = await readCandidate(
      { path: 'linkdir/canary.py', absolutePath, size: 100, isTracked: true },
      1_000_000,
    );
    expect(read).toEqual({ entry: expect.objectContaining({ path: 'linkdir/canary.py' }) });
    expect(JSON.stringify(read)).toMatch(/symlink/);
    expect(JSON.stringify(read)).not.toContain(marker);
  });

  it('the walker (no git) never enters the symlinked folder', async () => {
    const plain = track(makeTempFolder('oy-walk-link-'));
    writeFileSync(path.join(plain, 'main.py'), 'print(1)\n');
    symlinkSync(path.join(outside, 'secret-dir'), path.join(plain, 'linkdir'));
    const { text } = await auditJson(plain, ['--offline']);
    expect(text).toContain('main.py');
    expect(text).not.toContain(marker);
  });
});

describe('a relative PATH entry with fake git, bwrap and bash ahead of the real ones', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    root = track(makeConfiguredRepo(trap));
    writeFakeTools(trap, path.join(root, 'node_modules', '.bin'));
    env = { PATH: `./node_modules/.bin::${process.env.PATH ?? ''}` };
  });

  it('control: a lookup that honours relative entries runs the fake git', () => {
    spawnSync('git', ['--version'], { cwd: root, env: { ...process.env, ...env } });
    expect(trap.fired()).toContain('fake-git');
  });

  it('oy audit --offline runs the real git, not the fake', async () => {
    const { text } = await auditJson(root, ['--offline'], env);
    expect(text).toMatch(/[0-9a-f]{40}/);
    expect(trap.fired()).toEqual([]);
  });

  it('oy run --mode auto runs the command with the real bash and bwrap', async () => {
    const result = await runCommand(root, 'echo real-shell-ran', env);
    expect(result.stdout + result.stderr).not.toContain('fake-');
    expect(trap.fired()).toEqual([]);
  });

  it('oy doctor probes the real git, bash and bwrap', async () => {
    const result = await oy(root, ['doctor'], env);
    expect(result.stdout + result.stderr).not.toContain('node_modules/.bin');
    expect(trap.fired()).toEqual([]);
  });
});
