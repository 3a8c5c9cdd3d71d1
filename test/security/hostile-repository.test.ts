import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/agent/checkpoint/checkpoints.js';
import { readCandidate } from '../../src/audit/collect/read-candidate.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import {
  HOSTILE_ATTRIBUTES,
  makeClonedBareLayout,
  makeConfiguredRepo,
  makeGitFileRepo,
  makeStatDirty,
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
    const result = await runOy(['audit', '--model', MODEL, '--format', 'json', '--out', out, ...args], {
      cwd,
      env: fakeProviderEnv(own),
    });
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
    tryPlainGit(copy, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-qm', 'x', '--allow-empty');
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
