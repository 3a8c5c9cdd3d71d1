import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openForWrite } from '../../../src/safety/paths/open-for-write.js';
import {
  resolveWorkspacePath,
  type PathAccess,
} from '../../../src/safety/paths/resolve-workspace-path.js';
import type { PathRule } from '../../../src/safety/paths/path-refusal.js';
import { ageTimes, snapshotOutside } from './outside-snapshot.js';

/**
 * The path escape matrix for the agent's file tools: every case is resolved for read, list, search
 * and write, and written through `openForWrite`; after each one the disk outside the workspace
 * (contents, mtimes and atimes, so reads and listings show too) must be exactly as before.
 */
const sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-ws-escape-')));
const workspace = path.join(sandbox, 'ws');
const outside = path.join(sandbox, 'outside');
const canary = path.join(outside, 'canary.txt');
const CANARY_TEXT = 'canary: nothing may read or write me\n';
/** 2001-09-09, a whole second: old enough that relatime records any read. */
const AGED_SECONDS = 1_000_000_000;

type Expected = PathRule | 'ok';
type Mode = PathAccess | 'openForWrite';
interface Case {
  name: string;
  requested: () => string;
  /** Outcome for every mode unless `write` (also used by openForWrite) or `reads` says otherwise. */
  all: Expected;
  reads?: Expected;
  write?: Expected;
}

const cases: Case[] = [
  // `..` chains and absolute paths
  { name: 'one .. step', requested: () => '../escape.txt', all: 'outside-workspace' },
  { name: 'two .. steps', requested: () => '../../escape.txt', all: 'outside-workspace' },
  {
    name: '.. through a real folder',
    requested: () => 'sub/../../escape.txt',
    all: 'outside-workspace',
  },
  {
    name: '.. deep in the middle',
    requested: () => 'sub/deep/../../../outside/canary.txt',
    all: 'outside-workspace',
  },
  { name: './ then ..', requested: () => './../outside/canary.txt', all: 'outside-workspace' },
  { name: 'the parent folder itself', requested: () => '..', all: 'outside-workspace' },
  { name: 'an absolute path to the canary', requested: () => canary, all: 'outside-workspace' },
  { name: 'an absolute path to the sandbox', requested: () => sandbox, all: 'outside-workspace' },
  { name: 'the file system root', requested: () => '/', all: 'outside-workspace' },
  {
    name: 'an absolute path that climbs back out',
    requested: () => `${workspace}/../outside/canary.txt`,
    all: 'outside-workspace',
  },
  {
    name: 'an absolute path inside',
    requested: () => path.join(workspace, 'notes.txt'),
    all: 'ok',
  },
  { name: '.. that stays inside', requested: () => 'sub/deep/../../notes.txt', all: 'ok' },
  // symlinked files and folders
  {
    name: 'a symlinked folder leading outside',
    requested: () => 'linkdir',
    all: 'symlink-escape',
    write: 'symlink-write',
  },
  {
    name: 'a file under a symlinked folder',
    requested: () => 'linkdir/canary.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a not-yet-existing path under a symlinked ancestor',
    requested: () => 'linkdir/new/deeper/x.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a symlinked file leading outside',
    requested: () => 'link-to-canary.txt',
    all: 'symlink-escape',
    write: 'symlink-write',
  },
  {
    name: 'a symlinked file inside',
    requested: () => 'link-inside.txt',
    all: 'ok',
    write: 'symlink-write',
  },
  { name: 'a symlinked folder inside', requested: () => 'linkdir-inside/file.txt', all: 'ok' },
  { name: 'a link to the root itself', requested: () => 'self/self/notes.txt', all: 'ok' },
  {
    name: 'a relative link climbing out',
    requested: () => 'sub/linkup/outside/canary.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a nested relative link to outside',
    requested: () => 'sub/deep/relative-out/canary.txt',
    all: 'symlink-escape',
  },
  {
    name: '.. after a link (resolved as text)',
    requested: () => 'linkdir/../notes.txt',
    all: 'ok',
  },
  // dangling links and loops
  {
    name: 'a dangling link pointing outside',
    requested: () => 'dangling.txt',
    all: 'symlink-escape',
    write: 'symlink-write',
  },
  {
    name: 'a dangling folder link pointing outside',
    requested: () => 'danglingdir/x.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a dangling link inside',
    requested: () => 'dangling-inside.txt',
    all: 'invalid-path',
    write: 'symlink-write',
  },
  {
    name: 'a dangling chain that leaves on its second hop',
    requested: () => 'chain-1/x.txt',
    all: 'symlink-escape',
  },
  { name: 'a self loop', requested: () => 'loop/x.txt', all: 'invalid-path' },
  {
    name: 'a two-link loop',
    requested: () => 'loop-a',
    all: 'invalid-path',
    write: 'symlink-write',
  },
  // protected folders
  {
    name: '.git/hooks/pre-commit',
    requested: () => '.git/hooks/pre-commit',
    all: 'ok',
    write: 'protected-path',
  },
  { name: '.git/config', requested: () => '.git/config', all: 'ok', write: 'protected-path' },
  {
    name: '.oy/config.json',
    requested: () => '.oy/config.json',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: 'a nested .git',
    requested: () => 'vendor/lib/.git/hooks/post-checkout',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: 'a link inside pointing into .git',
    requested: () => 'hooks-link/pre-push',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: 'a not-yet-existing .oy',
    requested: () => 'sub/.oy/config.json',
    all: 'ok',
    write: 'protected-path',
  },
  // case and look-alike tricks
  {
    name: '.GIT in capitals',
    requested: () => '.GIT/hooks/pre-commit',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: '.Oy in mixed case',
    requested: () => '.Oy/config.json',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: '.git. with a trailing dot',
    requested: () => '.git./hooks/pre-commit',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: '.git with a zero-width joiner',
    requested: () => '.g\u200Cit/hooks/pre-commit',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: 'the 8.3 short name GIT~1',
    requested: () => 'GIT~1/hooks/pre-commit',
    all: 'ok',
    write: 'protected-path',
  },
  {
    name: 'the workspace name in capitals',
    requested: () => '../WS/notes.txt',
    all: 'outside-workspace',
  },
  {
    name: 'a capitalised folder then ..',
    requested: () => 'SUB/../../outside/canary.txt',
    all: 'outside-workspace',
  },
  {
    name: 'one-dot leaders looking like ..',
    requested: () => '\u2024\u2024/outside/canary.txt',
    all: 'ok',
  },
  // malformed input
  { name: 'a NUL byte', requested: () => 'notes.txt\0.png', all: 'invalid-path' },
  {
    name: 'a NUL byte before ..',
    requested: () => '\0/../../outside/canary.txt',
    all: 'invalid-path',
  },
  { name: 'a very long path', requested: () => 'a/'.repeat(2100) + 'x.txt', all: 'invalid-path' },
  { name: 'a very long name', requested: () => 'n'.repeat(300), all: 'invalid-path' },
  { name: 'an empty path', requested: () => '', all: 'invalid-path' },
  { name: 'the workspace itself', requested: () => '.', all: 'ok', write: 'invalid-path' },
  { name: 'a file used as a folder', requested: () => 'notes.txt/x', all: 'invalid-path' },
  { name: 'a FIFO', requested: () => 'pipe', all: 'invalid-path' },
  // Windows separators and URL encoding
  {
    name: 'Windows separators climbing out',
    requested: () => '..\\outside\\canary.txt',
    all: 'invalid-path',
  },
  {
    name: 'mixed separators',
    requested: () => 'sub\\..\\../outside/canary.txt',
    all: 'invalid-path',
  },
  { name: 'a drive-letter path', requested: () => 'C:\\Windows\\win.ini', all: 'invalid-path' },
  { name: 'a UNC path', requested: () => '\\\\server\\share\\x.txt', all: 'invalid-path' },
  {
    name: 'URL-encoded dots (a literal name)',
    requested: () => '%2e%2e/%2e%2e/outside/canary.txt',
    all: 'ok',
  },
  {
    name: 'URL-encoded slashes (one literal name)',
    requested: () => '..%2f..%2foutside%2fcanary.txt',
    all: 'ok',
  },
  { name: 'double-encoded dots', requested: () => '%252e%252e/canary.txt', all: 'ok' },
  { name: 'a file: URL (a literal folder)', requested: () => 'file:/etc/passwd', all: 'ok' },
  // plain paths that must keep working
  { name: 'a new nested file', requested: () => 'reports/deep/new.txt', all: 'ok' },
  { name: 'doubled slashes and ./', requested: () => 'sub//./file.txt', all: 'ok' },
];

const modes: Mode[] = ['read', 'list', 'search', 'write', 'openForWrite'];

function expectedFor(testCase: Case, mode: Mode): Expected {
  if (mode === 'write' || mode === 'openForWrite') return testCase.write ?? testCase.all;
  return testCase.reads ?? testCase.all;
}

beforeAll(() => {
  mkdirSync(path.join(workspace, 'sub', 'deep'), { recursive: true });
  mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(workspace, '.oy'), { recursive: true });
  mkdirSync(path.join(workspace, 'vendor', 'lib', '.git', 'hooks'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(canary, CANARY_TEXT);
  writeFileSync(path.join(outside, 'secret.env'), 'API_KEY=outside\n');
  writeFileSync(path.join(workspace, 'notes.txt'), 'inside\n');
  writeFileSync(path.join(workspace, 'sub', 'file.txt'), 'sub file\n');
  writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(workspace, '.oy', 'config.json'), '{}\n');
  symlinkSync(outside, path.join(workspace, 'linkdir'));
  symlinkSync(canary, path.join(workspace, 'link-to-canary.txt'));
  symlinkSync('notes.txt', path.join(workspace, 'link-inside.txt'));
  symlinkSync('sub', path.join(workspace, 'linkdir-inside'));
  symlinkSync('.', path.join(workspace, 'self'));
  symlinkSync(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling.txt'));
  symlinkSync(path.join(outside, 'no-such-dir'), path.join(workspace, 'danglingdir'));
  symlinkSync('nothing-here.txt', path.join(workspace, 'dangling-inside.txt'));
  symlinkSync('chain-2', path.join(workspace, 'chain-1'));
  symlinkSync('../outside/missing-dir', path.join(workspace, 'chain-2'));
  symlinkSync('loop', path.join(workspace, 'loop'));
  symlinkSync('loop-b', path.join(workspace, 'loop-a'));
  symlinkSync('loop-a', path.join(workspace, 'loop-b'));
  symlinkSync('../..', path.join(workspace, 'sub', 'linkup'));
  symlinkSync('../../../outside', path.join(workspace, 'sub', 'deep', 'relative-out'));
  symlinkSync('.git/hooks', path.join(workspace, 'hooks-link'));
  execFileSync('mkfifo', [path.join(workspace, 'pipe')]);
  ageTimes(sandbox, workspace, AGED_SECONDS);
});

afterAll(() => {
  console.log(`path escape matrix: ${cases.length * modes.length} cases`);
  rmSync(sandbox, { recursive: true, force: true });
});

/** What the tool would do with an allowed path; each step refuses nothing itself, as a careless tool would. */
async function actOn(mode: Mode, requested: string): Promise<Expected> {
  if (mode === 'openForWrite') {
    const opened = await openForWrite(workspace, requested);
    if (!opened.ok) return opened.rule;
    expectInside(opened.absolutePath);
    await opened.handle.writeFile('written by the matrix\n');
    await opened.handle.close();
    expect(readFileSync(opened.absolutePath, 'utf8')).toBe('written by the matrix\n');
    return 'ok';
  }
  const resolved = resolveWorkspacePath(workspace, requested, mode);
  if (!resolved.ok) {
    expect(resolved.reason).toContain(`[${resolved.rule}]`);
    return resolved.rule;
  }
  expectInside(resolved.absolutePath);
  expect(path.join(workspace, resolved.relativePath)).toBe(resolved.absolutePath);
  const stats = statOrUndefined(resolved.absolutePath);
  if (mode === 'read' && stats?.isFile()) readFileSync(resolved.absolutePath);
  if (mode === 'list' && stats?.isDirectory()) readdirSync(resolved.absolutePath);
  if (mode === 'search' && stats) searchUnder(resolved.relativePath);
  if (mode === 'write') {
    // The plain write path a tool without openForWrite would take.
    mkdirSync(path.dirname(resolved.absolutePath), { recursive: true });
    closeSync(openSync(resolved.absolutePath, 'w'));
  }
  return 'ok';
}

/** A search tool re-checks every entry it descends into, so links inside a listed folder are confined too. */
function searchUnder(relative: string, visited = new Set<string>()): void {
  const resolved = resolveWorkspacePath(workspace, relative, 'search');
  if (!resolved.ok || visited.has(resolved.absolutePath)) return;
  visited.add(resolved.absolutePath);
  const stats = lstatSync(resolved.absolutePath);
  if (stats.isFile()) {
    readFileSync(resolved.absolutePath);
    return;
  }
  if (!stats.isDirectory()) return;
  for (const name of readdirSync(resolved.absolutePath)) {
    if (name !== 'pipe') searchUnder(path.join(resolved.relativePath, name), visited);
  }
}

/** The canary's text, putting its times back so the next case can still see a read. */
function readCanary(): string {
  const text = readFileSync(canary, 'utf8');
  utimesSync(canary, AGED_SECONDS, AGED_SECONDS);
  return text;
}

function expectInside(absolutePath: string): void {
  const relative = path.relative(workspace, absolutePath);
  const isOutside =
    relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  expect(isOutside, absolutePath).toBe(false);
}

function statOrUndefined(filePath: string) {
  try {
    return statSync(filePath);
  } catch {
    return undefined;
  }
}

describe('path escape matrix', () => {
  const rows = cases.flatMap((testCase) =>
    modes.map((mode) => ({ label: `${mode}: ${testCase.name}`, testCase, mode })),
  );

  it.each(rows)('$label', async ({ testCase, mode }) => {
    const before = snapshotOutside(sandbox, workspace);
    const canaryBefore = statSync(canary);
    const outcome = await actOn(mode, testCase.requested());
    expect(outcome).toBe(expectedFor(testCase, mode));
    expect(snapshotOutside(sandbox, workspace)).toEqual(before);
    expect(statSync(canary).mtimeMs).toBe(canaryBefore.mtimeMs);
    expect(statSync(canary).atimeMs).toBe(AGED_SECONDS * 1000);
    expect(readCanary()).toBe(CANARY_TEXT);
  });

  it('refuses every protected write on disk: no hook was created', () => {
    expect(readdirSync(path.join(workspace, '.git', 'hooks'))).toEqual([]);
    expect(readdirSync(path.join(workspace, 'vendor', 'lib', '.git', 'hooks'))).toEqual([]);
    expect(readFileSync(path.join(workspace, '.oy', 'config.json'), 'utf8')).toBe('{}\n');
  });

  it('notices a read outside (the check itself can fail)', () => {
    const before = snapshotOutside(sandbox, workspace);
    readFileSync(path.join(outside, 'secret.env'));
    expect(snapshotOutside(sandbox, workspace)).not.toEqual(before);
    ageTimes(sandbox, workspace, AGED_SECONDS);
  });
});
