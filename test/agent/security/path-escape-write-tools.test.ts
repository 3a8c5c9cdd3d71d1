import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editTool } from '../../../src/agent/tools/edit-tool.js';
import { replaceTool } from '../../../src/agent/tools/replace-tool.js';
import type { AgentTool } from '../../../src/agent/tools/tool-types.js';
import { writeTool } from '../../../src/agent/tools/write-tool.js';
import type { PathRule } from '../../../src/safety/paths/path-refusal.js';
import { ageTimes, snapshotOutside } from '../../safety/paths/outside-snapshot.js';
import { makeToolContext } from '../tools/make-tool-context.js';

/**
 * The path escape matrix for the tools that change files (SECURITY.md "File tools stay in the workspace"): every case goes
 * through the real write, edit and replace tools in auto mode (nothing asks), and after each one
 * the disk outside the workspace (contents, mtimes and atimes) must be exactly as before.
 * The resolver's own matrix is test/safety/paths/workspace-path-escape.test.ts; its table lives in a
 * test file (importing it would run it), so the cases that matter for writing are restated here.
 */
const sandbox = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-write-escape-')));
const workspace = path.join(sandbox, 'ws');
const outside = path.join(sandbox, 'outside');
const canary = path.join(outside, 'canary.txt');
const canaryDir = path.join(outside, 'canary-dir');
const CANARY_TEXT = 'canary: nothing may write me\n';
const HOOK_TEXT = '#!/bin/sh\necho canary\n';
/** 2001-09-09, a whole second: old enough that relatime records any read. */
const AGED_SECONDS = 1_000_000_000;

type ToolName = 'write' | 'edit' | 'replace';
/** A rule the refusal must name, `ok` (done inside the workspace) or `failed` (refused without a path rule). */
type Expected = PathRule | 'ok' | 'failed';
interface Case {
  name: string;
  requested: () => string;
  /** Outcome for every tool unless overridden per tool. */
  all: Expected;
  write?: Expected;
  edit?: Expected;
  replace?: Expected;
}

const cases: Case[] = [
  // `..` chains and absolute paths
  {
    name: 'one .. step to the canary',
    requested: () => '../outside/canary.txt',
    all: 'outside-workspace',
  },
  { name: 'two .. steps', requested: () => '../../escape.txt', all: 'outside-workspace' },
  {
    name: '.. through a real folder',
    requested: () => 'sub/../../outside/canary.txt',
    all: 'outside-workspace',
  },
  { name: 'the parent folder', requested: () => '..', all: 'outside-workspace' },
  { name: 'an absolute path to the canary', requested: () => canary, all: 'outside-workspace' },
  {
    name: 'an absolute path to the canary folder',
    requested: () => canaryDir,
    all: 'outside-workspace',
  },
  { name: 'the file system root', requested: () => '/', all: 'outside-workspace' },
  {
    name: 'an absolute path that climbs back out',
    requested: () => `${workspace}/../outside/canary.txt`,
    all: 'outside-workspace',
  },
  {
    name: 'the workspace name in capitals',
    requested: () => '../WS/notes.txt',
    all: 'outside-workspace',
  },
  // symlinks: file, folder, ancestor, dangling, loops
  {
    name: 'a symlinked file leading outside',
    requested: () => 'link-to-canary.txt',
    all: 'symlink-write',
    replace: 'symlink-escape',
  },
  {
    name: 'a symlinked folder leading outside',
    requested: () => 'linkdir',
    all: 'symlink-write',
    replace: 'symlink-escape',
  },
  {
    name: 'a file under a symlinked folder',
    requested: () => 'linkdir/canary.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a file in the canary folder via a link',
    requested: () => 'linkdir/canary-dir/inner.txt',
    all: 'symlink-escape',
  },
  {
    name: 'a new path under a symlinked ancestor',
    requested: () => 'linkdir/new/deeper/x.txt',
    all: 'symlink-escape',
  },
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
    name: 'a dangling link pointing outside',
    requested: () => 'dangling.txt',
    all: 'symlink-write',
    replace: 'symlink-escape',
  },
  {
    name: 'a dangling folder link pointing outside',
    requested: () => 'danglingdir/x.txt',
    all: 'symlink-escape',
  },
  { name: 'a self loop', requested: () => 'loop/x.txt', all: 'invalid-path' },
  {
    name: 'a two-link loop',
    requested: () => 'loop-a',
    all: 'symlink-write',
    replace: 'invalid-path',
  },
  // protected folders and case variants
  {
    name: '.git/hooks/pre-commit',
    requested: () => '.git/hooks/pre-commit',
    all: 'protected-path',
    replace: 'failed',
  },
  { name: '.git/config', requested: () => '.git/config', all: 'protected-path', replace: 'failed' },
  {
    name: '.oy/config.json',
    requested: () => '.oy/config.json',
    all: 'protected-path',
    replace: 'failed',
  },
  {
    name: '.GIT in capitals',
    requested: () => '.GIT/hooks/pre-commit',
    all: 'protected-path',
    replace: 'failed',
  },
  {
    name: '.Oy in mixed case',
    requested: () => '.Oy/config.json',
    all: 'protected-path',
    replace: 'failed',
  },
  {
    name: 'a link inside pointing into .git',
    requested: () => 'hooks-link/pre-commit',
    all: 'protected-path',
    replace: 'failed',
  },
  {
    name: 'the hooks link as a folder',
    requested: () => 'hooks-link',
    all: 'symlink-write',
    replace: 'failed',
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
  {
    name: 'URL-encoded dots (a literal name inside)',
    requested: () => '%2e%2e/%2e%2e/outside/canary.txt',
    all: 'failed',
    write: 'ok',
  },
  {
    name: 'URL-encoded slashes (one literal name inside)',
    requested: () => '..%2f..%2foutside%2fcanary.txt',
    all: 'failed',
    write: 'ok',
  },
  // the whole workspace, which holds links to outside: replace must not follow them
  { name: 'the workspace itself', requested: () => '.', all: 'invalid-path', replace: 'ok' },
];

const tools: Record<ToolName, { tool: AgentTool; args: (requested: string) => unknown }> = {
  write: { tool: writeTool, args: (p) => ({ path: p, content: 'PWNED\n' }) },
  edit: { tool: editTool, args: (p) => ({ path: p, old_string: 'canary', new_string: 'PWNED' }) },
  replace: {
    tool: replaceTool,
    args: (p) => ({ pattern: 'canary', replacement: 'PWNED', path: p }),
  },
};
const toolNames = Object.keys(tools) as ToolName[];

function expectedFor(testCase: Case, tool: ToolName): Expected {
  return testCase[tool] ?? testCase.all;
}

beforeAll(() => {
  mkdirSync(path.join(workspace, 'sub', 'deep'), { recursive: true });
  mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(workspace, '.oy'), { recursive: true });
  mkdirSync(canaryDir, { recursive: true });
  writeFileSync(canary, CANARY_TEXT);
  writeFileSync(path.join(canaryDir, 'inner.txt'), CANARY_TEXT);
  writeFileSync(path.join(workspace, 'notes.txt'), 'inside\n');
  writeFileSync(path.join(workspace, 'inside.txt'), 'the word canary, inside\n');
  writeFileSync(path.join(workspace, '.git', 'hooks', 'pre-commit'), HOOK_TEXT);
  writeFileSync(path.join(workspace, '.git', 'config'), '[core] # canary\n');
  writeFileSync(path.join(workspace, '.oy', 'config.json'), '{"canary": true}\n');
  symlinkSync(outside, path.join(workspace, 'linkdir'));
  symlinkSync(canary, path.join(workspace, 'link-to-canary.txt'));
  symlinkSync(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling.txt'));
  symlinkSync(path.join(outside, 'no-such-dir'), path.join(workspace, 'danglingdir'));
  symlinkSync('loop', path.join(workspace, 'loop'));
  symlinkSync('loop-b', path.join(workspace, 'loop-a'));
  symlinkSync('loop-a', path.join(workspace, 'loop-b'));
  symlinkSync('../..', path.join(workspace, 'sub', 'linkup'));
  symlinkSync('../../../outside', path.join(workspace, 'sub', 'deep', 'relative-out'));
  symlinkSync('.git/hooks', path.join(workspace, 'hooks-link'));
  ageTimes(sandbox, workspace, AGED_SECONDS);
});

afterAll(() => {
  console.log(`write tools path escape matrix: ${cases.length * toolNames.length} cases`);
  rmSync(sandbox, { recursive: true, force: true });
});

function outcomeOf(content: string): Expected {
  const body = JSON.parse(content) as { ok: boolean; error?: string };
  if (body.ok) return 'ok';
  const rule = /\[([a-z-]+)\]/u.exec(body.error ?? '')?.[1];
  return (rule as PathRule | undefined) ?? 'failed';
}

function readCanary(file: string): string {
  const text = readFileSync(file, 'utf8');
  // Put the times back, so the next case can still see a read.
  ageTimes(path.dirname(file), workspace, AGED_SECONDS);
  return text;
}

describe('write tools path escape matrix', () => {
  const rows = cases.flatMap((testCase) =>
    toolNames.map((tool) => ({ label: `${tool}: ${testCase.name}`, testCase, tool })),
  );

  it.each(rows)('$label', async ({ testCase, tool }) => {
    const before = snapshotOutside(sandbox, workspace);
    const canaryMtime = statSync(canary).mtimeMs;
    const { tool: agentTool, args } = tools[tool];
    const context = makeToolContext(workspace, { mode: 'auto' });
    const result = await agentTool.run(args(testCase.requested()), context);
    expect(outcomeOf(result.content), result.content).toBe(expectedFor(testCase, tool));
    expect(snapshotOutside(sandbox, workspace)).toEqual(before);
    expect(statSync(canary).mtimeMs).toBe(canaryMtime);
    expect(readCanary(canary)).toBe(CANARY_TEXT);
    expect(readCanary(path.join(canaryDir, 'inner.txt'))).toBe(CANARY_TEXT);
    for (const call of context.checkpointCalls) {
      const relative = path.relative(workspace, call.slice('file:'.length));
      const isOutside =
        relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
      expect(isOutside, call).toBe(false);
    }
  });

  it('has at least 20 cases per tool', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(rows).toHaveLength(cases.length * toolNames.length);
  });

  it('wrote nothing under .git/ or .oy/ and never created a dangling link target', () => {
    expect(readFileSync(path.join(workspace, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe(
      HOOK_TEXT,
    );
    expect(readFileSync(path.join(workspace, '.git', 'config'), 'utf8')).toBe('[core] # canary\n');
    expect(readFileSync(path.join(workspace, '.oy', 'config.json'), 'utf8')).toBe(
      '{"canary": true}\n',
    );
    expect(() => statSync(path.join(outside, 'not-yet.txt'))).toThrow();
  });

  it('changed the workspace where allowed (replace over the whole workspace)', () => {
    expect(readFileSync(path.join(workspace, 'inside.txt'), 'utf8')).toBe(
      'the word PWNED, inside\n',
    );
  });

  it('notices a write outside (the check itself can fail)', () => {
    const before = snapshotOutside(sandbox, workspace);
    writeFileSync(path.join(canaryDir, 'inner.txt'), CANARY_TEXT);
    expect(snapshotOutside(sandbox, workspace)).not.toEqual(before);
    ageTimes(sandbox, workspace, AGED_SECONDS);
  });
});
