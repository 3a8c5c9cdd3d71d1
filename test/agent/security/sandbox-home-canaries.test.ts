import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBwrapArgs } from '../../../src/agent/shell/build-bwrap-args.js';
import { listHiddenCandidates } from '../../../src/agent/shell/hidden-paths.js';
import { runSupervised, type CommandResult } from '../../../src/agent/shell/run-supervised.js';
import {
  DEFAULT_SANDBOX_SCOPE,
  layOutSandbox,
  probeSandbox,
} from '../../../src/agent/shell/sandbox.js';

// Security suite "sandbox home canaries" (SECURITY.md "Where bubblewrap works, commands run in a sandbox"): every place the sandbox promises to hide
// under HOME holds a canary, and no sandboxed command can read it even when the user shows the
// folders holding them (agent.homePaths): the credential list as the second line of defence. A
// control run with the same sandbox minus the hiding and the empty home reads every one.

const probe = await probeSandbox(process.env);
// Homes under /var/tmp: the sandbox's private /tmp would hide a home under /tmp wholesale.
const homes = {
  files: realpathSync(mkdtempSync('/var/tmp/oy-home-files-')),
  folders: realpathSync(mkdtempSync('/var/tmp/oy-home-folders-')),
};
const workspace = realpathSync(mkdtempSync('/var/tmp/oy-home-ws-'));
const elsewhere = realpathSync(mkdtempSync('/var/tmp/oy-home-elsewhere-'));
const run = randomBytes(6).toString('hex');

interface Planted {
  relative: string;
  canary: string;
  /** The path a command reads: the file itself, or the canary file inside a folder. */
  readPath: string;
}

/**
 * Plants a canary at every hidden place: as a file where nothing else nests under it (or as a
 * folder holding one, in the `folders` home), as a folder where another place lies inside it.
 */
function plant(home: string, asFolders: boolean): Planted[] {
  const all = listHiddenCandidates({ HOME: home });
  const nests = (candidate: string) => all.some((other) => other.startsWith(`${candidate}/`));
  return all.map((absolute, index) => {
    const relative = path.relative(home, absolute);
    const canary = `CANARY-${run}-${asFolders ? 'd' : 'f'}${index}`;
    let readPath = absolute;
    if (nests(absolute) || asFolders) {
      mkdirSync(absolute, { recursive: true });
      readPath = path.join(absolute, `canary-${index}`);
    } else mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileSync(readPath, `export OPENAI_API_KEY=${canary}\n`);
    return { relative, canary, readPath };
  });
}

const planted = { files: [] as Planted[], folders: [] as Planted[] };
const seen = { files: '', folders: '' };
const control = { files: '', folders: '' };

/** Every canary a command prints when it reads each planted path and lists its folder. */
function readEverything(list: readonly Planted[]): string {
  return list
    .map(
      ({ readPath }) =>
        `cat '${readPath}' 2>/dev/null; ls -A '${path.dirname(readPath)}' 2>/dev/null`,
    )
    .join('\n');
}

async function sandboxed(home: string, command: string, isHiding: boolean): Promise<CommandResult> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
  // Every top-level place that holds a hidden one is shown, as a user's agent.homePaths could:
  // the credential list, the second line of defence, is all that hides the canaries.
  const homePaths = [
    ...new Set(
      listHiddenCandidates({ HOME: home }).map((p) => path.relative(home, p).split('/')[0]),
    ),
  ].map((first) => `~/${first}`);
  const {
    git: _git,
    gitSettings: _settings,
    ...layout
  } = await layOutSandbox(workspace, env, false, {
    ...DEFAULT_SANDBOX_SCOPE,
    homePaths,
  });
  const args = buildBwrapArgs(isHiding ? layout : { ...layout, hidden: [], homes: [] });
  return runSupervised({
    command,
    cwd: workspace,
    timeoutMs: 30_000,
    env,
    sandbox: {
      kind: 'bwrap',
      bwrapPath: probe.bwrapPath ?? 'bwrap',
      args,
      allowNetwork: false,
      scope: DEFAULT_SANDBOX_SCOPE,
      gitSettings: [],
    },
  });
}

beforeAll(async () => {
  if (!probe.available) return;
  for (const kind of ['files', 'folders'] as const) {
    planted[kind] = plant(homes[kind], kind === 'folders');
    const command = readEverything(planted[kind]);
    seen[kind] = (await sandboxed(homes[kind], command, true)).stdout;
    control[kind] = (await sandboxed(homes[kind], command, false)).stdout;
  }
});

afterAll(() => {
  for (const dir of [...Object.values(homes), workspace, elsewhere]) {
    rmSync(dir, { recursive: true, force: true });
  }
});

interface Case {
  name: string;
  check: () => Promise<void> | void;
}

// Built from the list itself, so a place added to it is tested without editing this file.
const names = listHiddenCandidates({ HOME: '/home/u' }).map((absolute) =>
  path.relative('/home/u', absolute),
);
const cases: Case[] = [
  ...(['files', 'folders'] as const).flatMap((kind) =>
    names.map((relative, index) => ({
      name: `~/${relative} is hidden (planted as ${kind === 'files' ? 'a file where it can be' : 'a folder'})`,
      check() {
        const entry = planted[kind][index];
        expect(entry?.relative).toBe(relative);
        expect(seen[kind]).not.toContain(entry?.canary);
      },
    })),
  ),
  ...(['files', 'folders'] as const).map((kind) => ({
    name: `control: without the hiding, the same command reads every canary (${kind})`,
    check() {
      for (const { canary } of planted[kind]) expect(control[kind]).toContain(canary);
    },
  })),
  {
    name: 'an interactive shell does not pick up a key exported in ~/.bashrc',
    async check() {
      const result = await sandboxed(homes.files, 'bash -ic \'echo "key=$OPENAI_API_KEY"\'', true);
      expect(result.stdout).toContain('key=\n');
      expect(result.stdout + result.stderr).not.toContain(`CANARY-${run}`);
    },
  },
  {
    name: 'a credential file symlinked out of HOME is hidden where it lives',
    async check() {
      const home = realpathSync(mkdtempSync('/var/tmp/oy-home-link-'));
      const target = path.join(elsewhere, 'netrc');
      writeFileSync(target, `machine x password CANARY-${run}-link\n`);
      symlinkSync(target, path.join(home, '.netrc'));
      const result = await sandboxed(home, `cat ~/.netrc '${target}'`, true);
      expect(result.stdout).not.toContain(`CANARY-${run}-link`);
      rmSync(home, { recursive: true, force: true });
    },
  },
  {
    name: 'dangling symlinks at hidden places do not break the sandbox',
    async check() {
      const home = realpathSync(mkdtempSync('/var/tmp/oy-home-dangling-'));
      for (const name of ['.npmrc', '.ssh', '.config']) {
        symlinkSync(path.join(elsewhere, `missing-${name}`), path.join(home, name));
      }
      const result = await sandboxed(home, 'echo ran', true);
      expect(result).toMatchObject({ exit_code: 0, stdout: 'ran\n', sandboxed: true });
      rmSync(home, { recursive: true, force: true });
    },
  },
  {
    name: 'a tool cache stays readable; .gitconfig is not shown, only the identity in it',
    async check() {
      writeFileSync(
        path.join(homes.files, '.gitconfig'),
        `[user]\n\tname = n${run}\n[alias]\n\tx = !echo ${run}-alias\n`,
      );
      mkdirSync(path.join(homes.files, '.npm', '_cacache'), { recursive: true });
      writeFileSync(path.join(homes.files, '.npm', '_cacache', 'index'), run);
      const result = await sandboxed(
        homes.files,
        'cat ~/.npm/_cacache/index; cat ~/.gitconfig',
        true,
      );
      expect(result.stdout).toBe(run);
      expect(result.stderr).toContain('No such file');
    },
  },
];

describe.skipIf(!probe.available)('sandbox home canaries suite (bwrap)', () => {
  it.each(cases)('$name', async ({ check }) => check(), 30_000);

  it('counts its cases', () => {
    console.log(`sandbox home canaries suite: ${cases.length} cases`);
    expect(names.length).toBeGreaterThanOrEqual(80);
  });
});

// Say why in the run's output rather than passing silently.
if (!probe.available) {
  describe(`sandbox home canaries skipped: ${probe.reason}`, () => {
    it.skip('bwrap does not work on this machine', () => {});
  });
}
