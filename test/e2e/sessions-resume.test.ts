import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../src/agent/session/session-store.js';
import { resolveOyPaths } from '../../src/config/config-paths.js';
import type { FakeProviderServer, RecordedRequest } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { OY_BIN, runOy } from '../support/run-oy.js';

/** Sessions through the built CLI: listing, --continue, --resume, and resuming after kill -9. */
const MODEL = 'anthropic::claude-haiku-4-5';
/** Long enough that the process is surely still waiting when the test kills it. */
const HANG_MS = 60_000;

let fake: FakeProviderServer;
let workspace: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-sessions-e2e-')));
});
afterEach(async () => {
  await fake.close();
});

function oy(args: string[]) {
  return runOy(['--model', MODEL, ...args], { cwd: workspace, env: fakeProviderEnv(fake) });
}

interface WireMessage {
  role: string;
  content: { type: string; text?: string; id?: string; tool_use_id?: string }[];
}

/** The Anthropic messages of a recorded request. */
function messagesOf(request: RecordedRequest): WireMessage[] {
  return (request.body as { messages: WireMessage[] }).messages;
}

/** Roles alternate, and every tool_use is answered by a tool_result in the next message. */
function expectValidTranscript(messages: WireMessage[]): void {
  expect(messages[0]?.role).toBe('user');
  messages.forEach((message, index) => {
    if (index > 0)
      expect(message.role, JSON.stringify(messages)).not.toBe(messages[index - 1]!.role);
    const uses = message.content
      .filter((block) => block.type === 'tool_use')
      .map((block) => block.id);
    if (uses.length === 0) return;
    const answered = (messages[index + 1]?.content ?? [])
      .filter((block) => block.type === 'tool_result')
      .map((block) => block.tool_use_id);
    expect(answered).toEqual(uses);
  });
}

async function sessionFile(): Promise<string> {
  const [latest] = await listSessions(resolveOyPaths(process.env).stateDir, workspace);
  if (!latest) throw new Error('no session yet');
  return latest.file;
}

/** Starts `oy run`, waits until its session file holds `marker` and the fake has `calls` calls, then kills it with SIGKILL. */
async function runAndKill(args: string[], marker: string, calls: number): Promise<void> {
  const child = spawn(process.execPath, [OY_BIN, '--model', MODEL, ...args], {
    cwd: workspace,
    env: { ...process.env, NO_COLOR: '1', ...fakeProviderEnv(fake) },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const closed = new Promise((resolve) => child.on('close', resolve));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = await sessionFile()
      .then((file) => readFileSync(file, 'utf8'))
      .catch(() => '');
    if (text.includes(marker) && fake.modelCalls.length >= calls) break;
    if (Date.now() > deadline) throw new Error(`the session never showed ${marker}: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  await closed;
}

describe('oy sessions and resuming', () => {
  it('lists a run, and --continue sends the earlier conversation', async () => {
    fake.enqueue(reply.text('The answer is 42.'), reply.text('Still 42.'));
    expect((await oy(['run', 'what is the answer?'])).code).toBe(0);
    const listed = await oy(['sessions']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('what is the answer?');
    const json = JSON.parse((await oy(['sessions', '--json'])).stdout) as { turns: number }[];
    expect(json).toHaveLength(1);
    expect(json[0]!.turns).toBe(1);

    const second = await oy(['run', '-c', 'are you sure?']);
    expect(second.code, second.stderr).toBe(0);
    const messages = messagesOf(fake.modelCalls[1]!);
    expect(JSON.stringify(messages)).toMatch(
      /what is the answer\?.*The answer is 42\..*are you sure\?/s,
    );
    expectValidTranscript(messages);
    expect(JSON.parse((await oy(['sessions', '--json'])).stdout)).toHaveLength(1);
  });

  it('--resume picks a session by its number, and a new run without it starts a new session', async () => {
    fake.enqueue(
      reply.text('about apples'),
      reply.text('about pears'),
      reply.text('back to apples'),
    );
    await oy(['run', 'tell me about apples']);
    await oy(['run', 'tell me about pears']);
    const result = await oy(['run', '--resume', '2', 'and more?']);
    expect(result.code, result.stderr).toBe(0);
    const sent = JSON.stringify(messagesOf(fake.modelCalls[2]!));
    expect(sent).toContain('apples');
    expect(sent).not.toContain('pears');
  });

  it('resumes after kill -9 at a turn boundary: the finished turn is kept, the unanswered prompt dropped', async () => {
    fake.enqueue(reply.text('First answer.'), {
      kind: 'answer',
      text: 'never sent',
      latencyMs: HANG_MS,
    });
    expect((await oy(['run', 'first question'])).code).toBe(0);
    await runAndKill(['run', '-c', 'second question'], 'second question', 2);
    fake.enqueue(reply.text('Third answer.'));
    const third = await oy(['run', '-c', 'third question']);
    expect(third.code, third.stderr).toBe(0);
    const messages = messagesOf(fake.modelCalls.at(-1)!);
    const sent = JSON.stringify(messages);
    expect(sent).toMatch(/first question.*First answer\..*third question/s);
    expect(sent).not.toContain('second question');
    expectValidTranscript(messages);
    fake.assertDone();
  });

  it('resumes after kill -9 during a turn that already ran a tool: a valid transcript of the finished turns', async () => {
    writeFileSync(path.join(workspace, 'data.txt'), 'payload\n');
    fake.enqueue(reply.text('First answer.'), reply.toolCall('read', { path: 'data.txt' }), {
      kind: 'answer',
      textChunks: ['Partial', ' answer'],
      eventDelayMs: HANG_MS,
    });
    expect((await oy(['run', 'first question'])).code).toBe(0);
    await runAndKill(['run', '-c', 'read data.txt'], '"role":"tool"', 3);
    fake.enqueue(reply.text('Resumed.'));
    const resumed = await oy(['run', '-c', 'where were we?']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const messages = messagesOf(fake.modelCalls.at(-1)!);
    const sent = JSON.stringify(messages);
    expect(sent).toMatch(/first question.*First answer\..*where were we\?/s);
    expect(sent).not.toContain('Partial');
    expectValidTranscript(messages);
    fake.assertDone();
    const [summary] = await listSessions(resolveOyPaths(process.env).stateDir, workspace);
    expect(summary?.turns).toBe(2);
  });

  it('saves nothing with --no-session, and done carries no session id', async () => {
    fake.enqueue(reply.text('Not kept.'));
    const result = await oy(['run', '--no-session', '--json', 'forget this']);
    expect(result.code, result.stderr).toBe(0);
    const done = JSON.parse(result.stdout.trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
    expect(done).toMatchObject({ type: 'done', answer: 'Not kept.' });
    expect(done).not.toHaveProperty('sessionId');
    expect(await listSessions(resolveOyPaths(process.env).stateDir, workspace)).toEqual([]);
  });

  it('on Ctrl-C stops the request, saves the interrupted turn, and exits 130', async () => {
    fake.enqueue({
      kind: 'answer',
      textChunks: ['Working', ' on it', ' slowly'],
      eventDelayMs: HANG_MS,
    });
    const child = spawn(process.execPath, [OY_BIN, '--model', MODEL, 'run', 'a slow task'], {
      cwd: workspace,
      env: { ...process.env, NO_COLOR: '1', ...fakeProviderEnv(fake) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    const deadline = Date.now() + 30_000;
    // Interrupt once the request is in flight (the fake holds back even its first event).
    while (fake.modelCalls.length < 1) {
      if (Date.now() > deadline) throw new Error(`no output: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    expect(await code).toBe(130);
    expect(stderr).toContain('interrupted');
    const [summary] = await listSessions(resolveOyPaths(process.env).stateDir, workspace);
    expect(summary?.turns).toBe(1);
    fake.enqueue(reply.text('Picking up.'));
    expect((await oy(['run', '-c', 'go on'])).code).toBe(0);
    const sent = JSON.stringify(messagesOf(fake.modelCalls.at(-1)!));
    expect(sent).toMatch(/a slow task.*interrupted by the user.*go on/s);
    expect(stdout).not.toContain('slowly');
    expectValidTranscript(messagesOf(fake.modelCalls.at(-1)!));
  });
});
