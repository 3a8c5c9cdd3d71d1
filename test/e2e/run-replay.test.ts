import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import { listSessions } from '../../src/agent/session/session-store.js';
import { resolveOyPaths } from '../../src/config/config-paths.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { spawn } from 'node:child_process';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { OY_BIN, runOy } from '../support/run-oy.js';

/** `oy run --replay`: a run recorded against the fake provider, run again from its session with no provider. */
const MODEL = 'anthropic::claude-sonnet-5';

let fake: FakeProviderServer;
let workspace: string;
/** A user config with no model in it: the replay must not need one. */
let emptyConfig: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-replay-e2e-')));
  writeFileSync(path.join(workspace, 'notes.txt'), 'first line\nsecond line\n');
  emptyConfig = path.join(
    realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-replay-cfg-'))),
    'c.json',
  );
  writeFileSync(emptyConfig, '{}');
});
afterEach(async () => {
  await fake.close();
});

function parseEvents(stdout: string): AgentEvent[] {
  return stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AgentEvent);
}

/** Records a run: the built CLI against the fake provider, the session saved. */
async function record(args: string[]) {
  const run = await runOy(['run', '--json', '--model', MODEL, ...args], {
    cwd: workspace,
    env: { ...fakeProviderEnv(fake), OY_CONFIG: emptyConfig },
  });
  return { ...run, events: parseEvents(run.stdout) };
}

/** Replays with no key, no model configured, and the provider's address pointing at the fake, which must see nothing. */
async function replay(args: string[]) {
  const callsBefore = fake.modelCalls.length;
  const run = await runOy(['run', '--json', ...args], {
    cwd: workspace,
    env: {
      OY_CONFIG: emptyConfig,
      OY_MODEL: '',
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_BASE_URL: fake.url,
    },
  });
  expect(fake.modelCalls.length, 'a replay calls no provider').toBe(callsBefore);
  return { ...run, events: parseEvents(run.stdout) };
}

/** Timing fields aside: a tool's duration, bash's duration_ms in its result, and the session a run was saved to. */
function withoutTiming(events: AgentEvent[]): unknown[] {
  return events.map((event) => {
    if (event.type === 'tool_result')
      return {
        ...event,
        durationMs: 0,
        content: event.content.replace(/"duration_ms":\d+/gu, '"duration_ms":0'),
      };
    if (event.type === 'done') {
      const { sessionId: _sessionId, ...rest } = event;
      return rest;
    }
    return event;
  });
}

async function onlySessionFile(): Promise<string> {
  const sessions = await listSessions(resolveOyPaths(process.env).stateDir, workspace);
  expect(sessions).toHaveLength(1);
  return sessions[0]!.file;
}

function scriptTask(marker: string) {
  fake.enqueue(
    {
      kind: 'answer',
      thinking: [{ text: 'I will look first, then write.' }],
      text: 'Looking around.',
      textChunks: ['Look', 'ing ar', 'ound.'],
      toolCalls: [
        { name: 'list', arguments: { path: '.' } },
        { name: 'read', arguments: { path: 'notes.txt' } },
      ],
      usage: { inputTokens: 120, outputTokens: 40, cacheReadTokens: 7 },
    },
    {
      kind: 'answer',
      toolCalls: [
        {
          name: 'bash',
          arguments: { command: `printf '%s\\n' ${marker} > made.txt && wc -l notes.txt` },
        },
      ],
      usage: { inputTokens: 300, outputTokens: 30 },
    },
    reply.thinkingText('The file is written.', 'Done: made.txt holds the marker.'),
  );
}

describe('oy run --replay', () => {
  it('gives the recorded run the same events, with no provider, no key and no model configured', async () => {
    const marker = `marker${randomBytes(4).toString('hex')}`;
    scriptTask(marker);
    const recorded = await record(['--mode', 'auto', 'write the marker']);
    expect(recorded.code, recorded.stderr).toBe(0);
    fake.assertDone();
    expect(readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe(`${marker}\n`);
    const file = await onlySessionFile();
    const savedBytes = readFileSync(file);

    // The replay runs the tools again: put the workspace back as the run found it.
    rmSync(path.join(workspace, 'made.txt'));
    const replayed = await replay(['--mode', 'auto', '--replay', '1']);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(withoutTiming(replayed.events)).toEqual(withoutTiming(recorded.events));
    // The events carry what matters: thinking and text deltas as they streamed, tool results, usage and cost.
    expect(replayed.events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(3);
    expect(replayed.events.some((e) => e.type === 'thinking_delta')).toBe(true);
    expect(replayed.events.at(-1)).toMatchObject({ type: 'done', stopReason: 'completed' });
    expect(replayed.events.at(-1)).not.toHaveProperty('sessionId');
    // The tools really ran again; the session replayed is unchanged and no new one was saved.
    expect(readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe(`${marker}\n`);
    expect(readFileSync(file)).toEqual(savedBytes);
    await onlySessionFile();
  });

  it('stops with a clear message where the tools now give something else (a stricter mode)', async () => {
    const marker = `marker${randomBytes(4).toString('hex')}`;
    scriptTask(marker);
    const recorded = await record(['--mode', 'auto', 'write the marker']);
    expect(recorded.code, recorded.stderr).toBe(0);
    rmSync(path.join(workspace, 'made.txt'));

    const replayed = await replay(['--mode', 'plan', '--replay', 'latest']);
    expect(replayed.code).toBe(1);
    // Plan mode refused bash, so the recorded third answer no longer fits.
    expect(existsSync(path.join(workspace, 'made.txt'))).toBe(false);
    const error = replayed.events.find((event) => event.type === 'error');
    expect(error).toMatchObject({ kind: 'replay' });
    expect(error?.type === 'error' && error.message).toMatch(
      /the replay diverged: model call 3 of turn 1: the result of bash call \S+ differs from the recording/,
    );
    expect(replayed.events.at(-1)).toMatchObject({
      type: 'done',
      stopReason: 'error',
      notice: 'the replay diverged',
    });

    // The text output says it too, on stderr.
    const text = await runOy(['run', '--mode', 'plan', '--replay', '1'], {
      cwd: workspace,
      env: { OY_CONFIG: emptyConfig, ANTHROPIC_API_KEY: '' },
    });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('error: the replay diverged: model call 3 of turn 1');
  });

  it('fails clearly when the recording lacks an answer, and refuses a session without answers', async () => {
    scriptTask(`marker${randomBytes(4).toString('hex')}`);
    const recorded = await record(['--mode', 'auto', 'write the marker']);
    expect(recorded.code, recorded.stderr).toBe(0);
    const file = await onlySessionFile();
    const lines = readFileSync(file, 'utf8').split('\n');
    const answers = lines.filter((line) => line.startsWith('{"type":"answer"'));
    expect(answers).toHaveLength(3);

    // The last answer gone: the replay runs two calls, then has nothing to answer the third with.
    writeFileSync(file, lines.filter((line) => line !== answers[2]).join('\n'));
    rmSync(path.join(workspace, 'made.txt'));
    const short = await replay(['--mode', 'auto', '--replay', '1']);
    expect(short.code).toBe(1);
    const error = short.events.find((event) => event.type === 'error');
    expect(error?.type === 'error' && error.message).toContain(
      'the replay diverged: turn 1 asks for model call 3, and the recording has 2 answers for it',
    );
    expect(short.events.at(-1)).toMatchObject({ type: 'done', stopReason: 'error' });

    // An extra answer the replay never asks for is a divergence too.
    writeFileSync(file, [...lines.slice(0, -2), answers[2], ...lines.slice(-2)].join('\n'));
    rmSync(path.join(workspace, 'made.txt'), { force: true });
    const long = await replay(['--mode', 'auto', '--replay', '1']);
    expect(long.code).toBe(1);
    expect(JSON.stringify(long.events)).toContain(
      'turn 1 ended after 3 model calls, and the recording has 4 answers for it',
    );
    expect(long.events.at(-1)).toMatchObject({ type: 'done', stopReason: 'error' });

    // A session saved before answers were recorded cannot be replayed, and says so.
    writeFileSync(file, lines.filter((line) => !answers.includes(line)).join('\n'));
    const old = await replay(['--replay', '1']);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('holds no recorded model answers to replay');
  });

  it('reproduces a run whose model call failed: the same error, the same exit', async () => {
    fake.enqueue(
      {
        kind: 'answer',
        toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }],
      },
      // Not retried: a bad request fails at once, and the run ends with it.
      { kind: 'error', status: 400, message: 'messages: the request was refused' },
    );
    const recorded = await record(['--mode', 'auto', 'read the notes']);
    expect(recorded.code, recorded.stderr).toBe(1);
    fake.assertDone();
    const error = recorded.events.find((event) => event.type === 'error');
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect(readFileSync(await onlySessionFile(), 'utf8')).toContain('"type":"failed_call"');

    const replayed = await replay(['--mode', 'auto', '--replay', '1']);
    expect(replayed.code, replayed.stderr).toBe(1);
    expect(withoutTiming(replayed.events)).toEqual(withoutTiming(recorded.events));
    expect(replayed.events.at(-1)).toMatchObject({
      type: 'done',
      stopReason: 'error',
      notice: 'the model call failed',
    });
  });

  it('reproduces a run cancelled mid-answer: the words before the Ctrl-C, then exit 130', async () => {
    fake.enqueue({
      kind: 'answer',
      textChunks: ['First words', ' and', ' more'],
      // Between wire events, so the first words come after two delays and the Ctrl-C lands mid-answer.
      eventDelayMs: 2000,
    });
    const child = spawn(
      process.execPath,
      [OY_BIN, 'run', '--json', '--model', MODEL, '--mode', 'auto', 'a slow answer'],
      {
        cwd: workspace,
        env: { ...process.env, NO_COLOR: '1', ...fakeProviderEnv(fake), OY_CONFIG: emptyConfig },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Ctrl-C once the first words have arrived.
    const deadline = Date.now() + 30_000;
    while (!stdout.includes('First words')) {
      if (Date.now() > deadline) throw new Error(`no first words: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    expect(await code, stderr).toBe(130);
    const recorded = parseEvents(stdout);
    expect(recorded.at(-1)).toMatchObject({ type: 'done', stopReason: 'cancelled' });
    expect(readFileSync(await onlySessionFile(), 'utf8')).toContain(
      '"failure":{"type":"cancelled"}',
    );

    const replayed = await replay(['--mode', 'auto', '--replay', '1']);
    expect(replayed.code, replayed.stderr).toBe(130);
    expect(withoutTiming(replayed.events)).toEqual(withoutTiming(recorded));
    expect(replayed.events[0]).toEqual({ type: 'text_delta', text: 'First words' });
  });

  it('refuses a prompt, --model and --resume beside --replay', async () => {
    const cases = [
      [['--replay', '1', 'a new prompt'], 'give no prompt'],
      [['--replay', '1', '--model', MODEL], '--replay cannot be used with --model'],
      [['--replay', '1', '--resume', '1'], '--replay cannot be used with --continue or --resume'],
      [['--replay', 'nothing-here'], 'no saved session for this workspace'],
    ] as const;
    for (const [args, message] of cases) {
      const run = await replay([...args]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});
