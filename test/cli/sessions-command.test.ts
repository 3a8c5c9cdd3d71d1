import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSession } from '../../src/agent/session/session-store.js';
import { runSessionsCommand } from '../../src/cli/commands/sessions-command.js';
import type { GlobalOptions } from '../../src/cli/global-options.js';
import { resolveOyPaths } from '../../src/config/config-paths.js';

/** Runs the command with stdout and stderr captured (the test setup gave this file its own XDG dirs). */
async function run(
  options: GlobalOptions,
  ...args: [string?, string?]
): Promise<{ stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (sink: string[]) => (chunk: string | Uint8Array) => {
    sink.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture(out));
  vi.spyOn(process.stderr, 'write').mockImplementation(capture(err));
  try {
    await runSessionsCommand(options, ...args);
  } finally {
    vi.restoreAllMocks();
  }
  return { stdout: out.join(''), stderr: err.join('') };
}

function makeWorkspace(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-sessions-cmd-')));
}

async function saveSession(
  workspace: string,
  prompt: string,
  minute: number,
  costUsd: number | null,
) {
  const writer = await createSession({
    stateDir: resolveOyPaths(process.env).stateDir,
    workspaceRoot: workspace,
    model: 'anthropic::claude-sonnet-4-5',
    oyVersion: '0.1.0',
    now: () => new Date(Date.UTC(2026, 10, 22, 4, minute, 0)),
  });
  await writer.appendMessage(1, { role: 'user', text: prompt });
  await writer.appendMessage(1, { role: 'assistant', text: 'ok', toolCalls: [] });
  await writer.endTurn(
    1,
    { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd,
  );
  return writer.id;
}

afterEach(() => {
  delete process.env.OY_ROOT;
});

describe('oy sessions', () => {
  it('prints a table of this workspace, newest first', async () => {
    const workspace = makeWorkspace();
    const older = await saveSession(workspace, 'explain the build\nin detail', 1, 0.0123);
    const newer = await saveSession(workspace, `fix \u001b[31mthe bug ${'x'.repeat(200)}`, 2, null);
    await saveSession(makeWorkspace(), 'someone else', 3, 0);

    const { stdout, stderr } = await run({ cwd: workspace, color: false });
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^#\s+id\s+updated\s+turns\s+cost\s+first prompt$/);
    expect(lines[1]).toMatch(
      new RegExp(`^1  ${newer}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+1\\s+\\?  fix the bug x+…$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^2  ${older}  .*\\s1\\s+\\$0\\.0123  explain the build$`));
    expect(stdout).not.toContain('\u001b');
    expect(stdout).not.toContain('someone else');
  });

  it('shows a session name before its prompt, without terminal escapes', async () => {
    const workspace = makeWorkspace();
    const writer = await createSession({
      stateDir: resolveOyPaths(process.env).stateDir,
      workspaceRoot: workspace,
      model: 'anthropic::m',
      oyVersion: '0.1.0',
      name: 'wip\u001b[2J',
    });
    await writer.appendMessage(1, { role: 'user', text: 'hi' });
    const { stdout } = await run({ cwd: workspace });
    expect(stdout).toContain('[wip] hi');
    expect(stdout).not.toContain('\u001b');
  });

  it('finds the workspace through OY_ROOT', async () => {
    const workspace = makeWorkspace();
    const id = await saveSession(workspace, 'hello', 1, 0);
    process.env.OY_ROOT = workspace;
    expect((await run({})).stdout).toContain(id);
  });

  it('prints a JSON array with --json', async () => {
    const workspace = makeWorkspace();
    const id = await saveSession(workspace, 'hello', 1, 0.5);
    const parsed = JSON.parse((await run({ cwd: workspace, json: true })).stdout) as unknown[];
    expect(parsed).toEqual([
      expect.objectContaining({
        id,
        number: 1,
        firstPrompt: 'hello',
        turns: 1,
        costUsd: 0.5,
        workspace,
      }),
    ]);
  });

  it('says there is nothing on stderr, keeps stdout empty, and still succeeds', async () => {
    const workspace = makeWorkspace();
    const { stdout, stderr } = await run({ cwd: workspace });
    expect(stdout).toBe('');
    expect(stderr).toContain('no saved sessions');
    expect((await run({ cwd: workspace, quiet: true })).stderr).toBe('');
    expect((await run({ cwd: workspace, json: true })).stdout).toBe('[]\n');
  });

  it('refuses a --cwd that does not exist', async () => {
    await expect(run({ cwd: path.join(makeWorkspace(), 'missing') })).rejects.toThrow(
      /does not exist/,
    );
  });
});

describe('oy sessions show', () => {
  it('renders a saved session with its tool calls, results and usage, control characters shown inertly', async () => {
    const workspace = makeWorkspace();
    const writer = await createSession({
      stateDir: resolveOyPaths(process.env).stateDir,
      workspaceRoot: workspace,
      model: 'anthropic::claude-sonnet-4-5',
      oyVersion: '0.1.0',
    });
    await writer.appendMessage(1, { role: 'user', text: 'list the files' });
    await writer.appendMessage(1, {
      role: 'assistant',
      text: 'Looking \u001b[2Jnow.',
      toolCalls: [{ id: 't1', name: 'list', arguments: { path: '.' } }],
    });
    await writer.appendMessage(1, {
      role: 'tool',
      results: [{ toolCallId: 't1', content: '{"ok":true,"entries":["a.txt"]}' }],
    });
    await writer.appendMessage(1, { role: 'assistant', text: 'One file.', toolCalls: [] });
    await writer.endTurn(
      1,
      { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      0.0012,
    );
    const { stdout } = await run({ cwd: workspace }, 'show', '1');
    expect(stdout).toContain('> list the files');
    expect(stdout).toContain('[list] {"path":"."}');
    expect(stdout).toContain('result: {"ok":true,"entries":["a.txt"]}');
    expect(stdout).toContain('-- turn 1: 10 in, 5 out; $0.0012');
    expect(stdout).toContain('Looking ^[[2Jnow.');
    expect(stdout).not.toContain('\u001b');
  });
});
