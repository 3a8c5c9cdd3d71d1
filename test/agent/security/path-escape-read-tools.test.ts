import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTool } from '../../../src/agent/tools/list-tool.js';
import { readTool } from '../../../src/agent/tools/read-tool.js';
import { searchTool } from '../../../src/agent/tools/search-tool.js';
import type { AgentTool } from '../../../src/agent/tools/tool-types.js';
import type { PathRule } from '../../../src/safety/paths/path-refusal.js';
import { ageTimes, snapshotOutside } from '../../safety/paths/outside-snapshot.js';
import { makeToolContext } from '../tools/make-tool-context.js';

/**
 * The path escape matrix (SECURITY.md "File tools stay in the workspace") for read, list and search, through the real tools: every
 * case runs each tool; no result may hold the canary's text, and nothing outside the workspace
 * may be read or listed (contents, mtimes and atimes of the sandbox are compared before and after).
 */
const sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-read-escape-')));
const workspace = path.join(sandbox, 'ws');
const outside = path.join(sandbox, 'outside');
const canary = path.join(outside, 'canary.txt');
const CANARY_MARK = 'CANARY-7f3e';
const CANARY_TEXT = `${CANARY_MARK}: no tool may show me\n`;
/** 2001-09-09, a whole second: old enough that relatime records any read. */
const AGED_SECONDS = 1_000_000_000;

type ToolName = 'read' | 'list' | 'search';
/** `ok`: the tool answered; `failed`: an ordinary failure (missing, a folder...); else the refusing rule. */
type Expected = PathRule | 'ok' | 'failed';
interface Case {
  name: string;
  requested: () => string;
  all: Expected;
  read?: Expected;
  list?: Expected;
}

const cases: Case[] = [
  // `..` chains and absolute paths
  {
    name: 'one .. step to the canary',
    requested: () => '../outside/canary.txt',
    all: 'outside-workspace',
  },
  {
    name: 'many .. steps',
    requested: () => '../../../../../../etc/passwd',
    all: 'outside-workspace',
  },
  {
    name: '.. through a real folder',
    requested: () => 'sub/../../outside/canary.txt',
    all: 'outside-workspace',
  },
  {
    name: '.. deep in the middle',
    requested: () => 'sub/deep/../../../outside',
    all: 'outside-workspace',
  },
  { name: './ then ..', requested: () => './../outside', all: 'outside-workspace' },
  { name: 'the parent folder', requested: () => '..', all: 'outside-workspace' },
  { name: 'the parent with a trailing slash', requested: () => '../', all: 'outside-workspace' },
  { name: 'an absolute path to the canary', requested: () => canary, all: 'outside-workspace' },
  {
    name: 'an absolute path to the outside folder',
    requested: () => outside,
    all: 'outside-workspace',
  },
  { name: 'the file system root', requested: () => '/', all: 'outside-workspace' },
  {
    name: 'an absolute path that climbs back out',
    requested: () => `${workspace}/../outside/canary.txt`,
    all: 'outside-workspace',
  },
  // symlinks
  {
    name: 'a symlinked file leading outside',
    requested: () => 'link-to-canary.txt',
    all: 'symlink-escape',
  },
  { name: 'a symlinked folder leading outside', requested: () => 'linkdir', all: 'symlink-escape' },
  {
    name: 'a file under a symlinked folder',
    requested: () => 'linkdir/canary.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a not-yet-existing path under a symlinked ancestor',
    requested: () => 'linkdir/new/deeper',
    all: 'symlink-escape',
  },
  {
    name: 'a relative link climbing out',
    requested: () => 'sub/linkup/outside/canary.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a nested relative link to outside',
    requested: () => 'sub/deep/relative-out',
    all: 'symlink-escape',
  },
  {
    name: 'a file under a nested relative link',
    requested: () => 'sub/deep/relative-out/canary.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a dangling link pointing outside',
    requested: () => 'dangling.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a dangling folder link pointing outside',
    requested: () => 'danglingdir/x',
    all: 'symlink-escape',
  },
  {
    name: 'a dangling chain leaving on its second hop',
    requested: () => 'chain-1/x',
    all: 'symlink-escape',
  },
  { name: 'a dangling link inside', requested: () => 'dangling-inside.txt', all: 'invalid-path' },
  { name: 'a self loop', requested: () => 'loop/x', all: 'invalid-path' },
  { name: 'a two-link loop', requested: () => 'loop-a', all: 'invalid-path' },
  // malformed input
  {
    name: 'a NUL byte',
    requested: () => 'notes.txt\0../../outside/canary.txt',
    all: 'invalid-path',
  },
  { name: 'a NUL byte before ..', requested: () => '\0/../outside', all: 'invalid-path' },
  { name: 'a very long path', requested: () => 'a/'.repeat(2100) + 'x', all: 'invalid-path' },
  { name: 'a very long name', requested: () => 'n'.repeat(300), all: 'invalid-path' },
  { name: 'an empty path', requested: () => '', all: 'invalid-path' },
  // Windows separators, URL encoding, look-alikes and case
  {
    name: 'Windows separators climbing out',
    requested: () => '..\\outside\\canary.txt',
    all: 'invalid-path',
  },
  { name: 'mixed separators', requested: () => 'sub\\..\\../outside', all: 'invalid-path' },
  { name: 'a UNC path', requested: () => '\\\\server\\share', all: 'invalid-path' },
  {
    name: 'URL-encoded dots (a literal name)',
    requested: () => '%2e%2e/outside/canary.txt',
    all: 'failed',
  },
  {
    name: 'URL-encoded slashes (one literal name)',
    requested: () => '..%2foutside%2fcanary.txt',
    all: 'failed',
  },
  { name: 'double-encoded dots', requested: () => '%252e%252e/outside', all: 'failed' },
  { name: 'a file: URL (a literal folder)', requested: () => 'file:/etc/passwd', all: 'failed' },
  {
    name: 'one-dot leaders looking like ..',
    requested: () => '\u2024\u2024/outside/canary.txt',
    all: 'failed',
  },
  {
    name: 'the workspace name in capitals',
    requested: () => '../WS/../outside',
    all: 'outside-workspace',
  },
  {
    name: 'a capitalised folder then ..',
    requested: () => 'SUB/../../outside/canary.txt',
    all: 'outside-workspace',
  },
  // inside paths whose folders hold links that lead out: answered, never followed
  { name: 'the workspace root', requested: () => '.', all: 'ok', read: 'failed' },
  {
    name: 'the root through an absolute path',
    requested: () => workspace,
    all: 'ok',
    read: 'failed',
  },
  { name: 'a folder holding an outside link', requested: () => 'sub', all: 'ok', read: 'failed' },
  { name: 'a link to the root itself', requested: () => 'self/self', all: 'ok', read: 'failed' },
  {
    name: 'a symlinked file inside',
    requested: () => 'link-inside.txt',
    all: 'ok',
    list: 'failed',
  },
  {
    name: '.. that stays inside',
    requested: () => 'sub/deep/../../notes.txt',
    all: 'ok',
    list: 'failed',
  },
  {
    name: '.. after a link, resolved as text',
    requested: () => 'linkdir/../notes.txt',
    all: 'ok',
    list: 'failed',
  },
];

const tools: Record<ToolName, AgentTool> = { read: readTool, list: listTool, search: searchTool };

function argumentsFor(tool: ToolName, requested: string): Record<string, unknown> {
  if (tool === 'search') return { pattern: CANARY_MARK, path: requested, mode: 'literal' };
  if (tool === 'list') return { path: requested, depth: 10 };
  return { path: requested };
}

function expectedFor(testCase: Case, tool: ToolName): Expected {
  if (tool === 'read') return testCase.read ?? testCase.all;
  if (tool === 'list') return testCase.list ?? testCase.all;
  return testCase.all;
}

beforeAll(() => {
  mkdirSync(path.join(workspace, 'sub', 'deep'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(canary, CANARY_TEXT);
  writeFileSync(path.join(outside, '.gitignore'), `${CANARY_MARK}\n`);
  writeFileSync(path.join(workspace, 'notes.txt'), 'inside\n');
  writeFileSync(path.join(workspace, 'sub', 'file.txt'), 'sub file\n');
  symlinkSync(outside, path.join(workspace, 'linkdir'));
  symlinkSync(canary, path.join(workspace, 'link-to-canary.txt'));
  symlinkSync(canary, path.join(workspace, 'sub', 'canary-link.txt'));
  symlinkSync('notes.txt', path.join(workspace, 'link-inside.txt'));
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
  ageTimes(sandbox, workspace, AGED_SECONDS);
});

afterAll(() => {
  console.log(`read-tools path escape matrix: ${rows.length} cases (${cases.length} per tool)`);
  rmSync(sandbox, { recursive: true, force: true });
});

const rows = cases.flatMap((testCase) =>
  (Object.keys(tools) as ToolName[]).map((tool) => ({
    label: `${tool}: ${testCase.name}`,
    testCase,
    tool,
  })),
);

describe('read-tools path escape matrix', () => {
  it.each(rows)('$label', async ({ testCase, tool }) => {
    const before = snapshotOutside(sandbox, workspace);
    const context = makeToolContext(workspace);
    const result = await tools[tool].run(argumentsFor(tool, testCase.requested()), context);
    const body = JSON.parse(result.content) as { ok: boolean; error?: string };
    const expected = expectedFor(testCase, tool);

    expect(result.content).not.toContain(CANARY_MARK);
    expect(snapshotOutside(sandbox, workspace)).toEqual(before);
    expect(statSync(canary).atimeMs).toBe(AGED_SECONDS * 1000);
    if (expected === 'ok') expect(body, result.content).toMatchObject({ ok: true });
    else {
      expect(body.ok, result.content).toBe(false);
      if (expected === 'failed') expect(body.error).not.toMatch(/\[[a-z-]+\]$/);
      else expect(body.error).toContain(`[${expected}]`);
    }
  });

  it('runs at least 20 cases per tool', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(rows.length).toBe(cases.length * 3);
  });

  it('lists and searches a folder with outside links without following them', async () => {
    const context = makeToolContext(workspace);
    const listed = JSON.parse((await listTool.run({ path: 'sub', depth: 5 }, context)).content);
    expect(listed.entries).toEqual([
      'sub/canary-link.txt@',
      'sub/deep/',
      'sub/deep/relative-out@',
      'sub/file.txt',
      'sub/linkup@',
    ]);
    const found = JSON.parse(
      (await searchTool.run({ pattern: 'file|inside', path: '.' }, context)).content,
    );
    expect(found.matches).toEqual([
      { path: 'notes.txt', line: 1, text: 'inside' },
      { path: 'sub/file.txt', line: 1, text: 'sub file' },
    ]);
    expect(found.skipped.links).toBeGreaterThanOrEqual(10);
  });

  it('notices a read outside (the check itself can fail)', () => {
    const before = snapshotOutside(sandbox, workspace);
    expect(readFileSync(canary, 'utf8')).toBe(CANARY_TEXT);
    expect(snapshotOutside(sandbox, workspace)).not.toEqual(before);
    utimesSync(canary, AGED_SECONDS, AGED_SECONDS);
  });
});
