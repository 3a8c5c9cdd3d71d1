import { appendFileSync, mkdtempSync, realpathSync } from 'node:fs';
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

describe('oy sessions show: approvals, failures and hand edits', () => {
  const stateDir = () => resolveOyPaths(process.env).stateDir;
  const at = '2026-11-22T04:44:00.000Z';

  async function sessionWith(...lines: string[]) {
    const workspace = makeWorkspace();
    const writer = await createSession({
      stateDir: stateDir(),
      workspaceRoot: workspace,
      model: 'anthropic::claude-sonnet-4-5',
      oyVersion: '0.1.0',
    });
    await writer.appendMessage(1, { role: 'user', text: 'tidy up' });
    appendFileSync(writer.file, lines.map((line) => `${line}\n`).join(''));
    return { workspace, writer };
  }

  const approval = (fields: Record<string, unknown>) =>
    JSON.stringify({
      type: 'approval',
      at,
      turn: 1,
      toolCallId: 't1',
      tool: 'bash',
      summary: 'run npm test',
      decision: 'ask',
      outcome: 'allowed',
      reason: 'ask mode asks before the command "npm test"',
      ...fields,
    });

  it('says who settled each call: the policy and its rule, the user and the exact grant, or no one', async () => {
    const { workspace, writer } = await sessionWith(
      approval({ decision: 'allow', rule: 'mode:auto', summary: 'read a.txt', tool: 'read' }),
      approval({
        rule: 'Bash(npm test)',
        answer: 'always',
        askedBy: 'mode:ask',
        offer: 'always: allows exactly `npm test` for this session',
        granted: ['Bash(npm test)'],
      }),
      approval({
        rule: 'user-approved',
        answer: 'always',
        askedBy: 'uncertain-command',
        granted: [],
      }),
      approval({ outcome: 'denied', rule: 'mode:ask', answer: 'no', askedBy: 'mode:ask' }),
      approval({ decision: 'deny', outcome: 'denied', rule: 'Bash(rm:*)', summary: 'run rm x' }),
      approval({ decision: 'deny', outcome: 'denied', rule: 'mode:ask', isUnattended: true }),
      JSON.stringify({
        type: 'failed_call',
        at,
        turn: 1,
        input: [],
        text: 'Half',
        deltas: [4],
        failure: { type: 'error', kind: 'overloaded', message: 'the service is overloaded' },
      }),
      JSON.stringify({
        type: 'failed_call',
        at,
        turn: 1,
        input: [],
        text: '',
        deltas: [],
        failure: { type: 'cancelled' },
      }),
    );
    const { stdout } = await run({ cwd: workspace, color: false }, 'show', writer.id);
    const shown = stdout.split('\n').slice(3, -1);
    expect(shown).toEqual([
      '  allowed: read a.txt (by mode:auto)',
      '  asked: run npm test (by mode:ask); the user said always, granting Bash(npm test) for this session',
      '  asked: run npm test (by uncertain-command); the user said always, which could not be remembered: this call only',
      '  asked: run npm test (by mode:ask); the user said no',
      '  refused: run rm x (by Bash(rm:*))',
      '  refused: run npm test (mode:ask asks, and no one could answer in this non-interactive run)',
      '-- model call failed (overloaded): the service is overloaded',
      '-- model call cancelled by the user',
    ]);

    // --json gives the same lines as records.
    const json = JSON.parse((await run({ cwd: workspace, json: true }, 'show', '1')).stdout) as {
      records: Array<{ type: string }>;
      unreadableLines: number[];
    };
    expect(json.records.filter((record) => record.type === 'approval')).toHaveLength(6);
    expect(json.records.filter((record) => record.type === 'failed_call')).toHaveLength(2);
    expect(json.unreadableLines).toEqual([]);
  });

  it('survives a file edited by hand: unreadable lines are counted, hostile text is shown inertly', async () => {
    const hostile = '\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b31m\u202e\r\n{"type":"turn"}\u2028';
    const deep = `{"type":"message","at":"${at}","turn":1,"message":{"role":"assistant","text":"","toolCalls":[{"id":"d","name":"bash","arguments":${'['.repeat(6000)}${']'.repeat(6000)}}]}}`;
    // Control: such a line parses, and serialising it again overflows the stack, so showing it would crash.
    expect(() => JSON.stringify(JSON.parse(deep))).toThrow(RangeError);
    const { workspace, writer } = await sessionWith(
      '{"type":"approval", torn by a cra',
      deep,
      JSON.stringify({ type: 'from-a-newer-oy', at, turn: 1 }),
      JSON.stringify({
        type: 'session',
        version: 1,
        id: 'forged',
        workspace: '/',
        model: 'x',
        createdAt: at,
        oyVersion: '9',
      }),
      approval({
        summary: `run ${hostile}`,
        rule: hostile,
        answer: 'always',
        askedBy: hostile,
        granted: [`Bash(${hostile})`],
      }),
      JSON.stringify({
        type: 'failed_call',
        at,
        turn: 1,
        input: [],
        text: '',
        deltas: [],
        failure: { type: 'error', kind: hostile, message: hostile },
      }),
    );
    const { stdout } = await run({ cwd: workspace, color: false }, 'show', writer.id);
    expect(stdout).toContain(
      '-- 4 lines of this file could not be read and are left out (line 3, 4, 5, 6): torn by a crash, edited by hand, or written by a newer oy',
    );
    // No control character but the line ends (U+2028 is no terminal control; it cannot break a JSON line either).
    // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
    expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/u);
    const lines = stdout.trimEnd().split('\n');
    // The header, its details, the note, the prompt, and one line each for the approval and the failure.
    expect(lines).toHaveLength(6);
    expect(lines[4]).toContain(
      'asked: run ^[]52;c;cHduZWQ=^G^[[2J<U+009B>31m<U+202E>^M^J{"type":"turn"}',
    );
    expect(lines[5]).toMatch(/^-- model call failed \(\^\[\]52/u);
    expect(stdout).not.toContain('forged');
    const json = (await run({ cwd: workspace, json: true }, 'show', writer.id)).stdout;
    expect(JSON.parse(json)).toMatchObject({ unreadableLines: [3, 4, 5, 6] });
    // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/u);
  });
});
