import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events.js';
import type { FakeProviderServer } from '../fakes/fake-provider-server.js';
import { reply } from '../fakes/script.js';
import { fakeProviderEnv, startFakeProvider } from '../fakes/start-fake-provider.js';
import { runOy } from '../support/run-oy.js';
import { createSecretFactory } from '../support/secret-factory.js';

/** `oy run` through the built CLI against the in-process fake provider. */
const MODEL = 'anthropic::claude-haiku-4-5';

let fake: FakeProviderServer;
let workspace: string;

beforeEach(async () => {
  fake = await startFakeProvider();
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'oy-run-e2e-')));
});
afterEach(async () => {
  await fake.close();
});

function oy(args: string[], input?: string) {
  return runOy(args, {
    cwd: workspace,
    env: fakeProviderEnv(fake),
    ...(input === undefined ? {} : { input }),
  });
}

/** Every file under a folder, concatenated (the session files of this test's state directory). */
function readTree(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function parseNdjson(stdout: string): AgentEvent[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as AgentEvent);
}

describe('oy run', () => {
  it('streams the answer to stdout and puts the usage line on stderr', async () => {
    fake.enqueue({
      kind: 'answer',
      textChunks: ['Hello', ', ', 'there.'],
      usage: { inputTokens: 12, outputTokens: 3 },
    });
    const result = await oy(['run', '--model', MODEL, 'say', 'hello']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Hello, there.\n');
    expect(result.stderr).toMatch(
      /tokens: 12 in .* 3 out; cost \$0\.\d{4}; 1 model call; session \S+/,
    );
    fake.assertDone();
    expect(JSON.stringify(fake.modelCalls[0]!.body)).toContain('say hello');
  });

  it("starts each model call's text on its own line, and keeps tool progress off stdout", async () => {
    fake.enqueue(
      {
        kind: 'answer',
        text: 'Let me look.',
        toolCalls: [{ name: 'list', arguments: { path: '.' } }],
      },
      reply.text('Nothing here.'),
    );
    const result = await oy(['run', '--model', MODEL, 'look around']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Let me look.\nNothing here.\n');
    expect(result.stderr).toMatch(/^• list \. ok \d+ ms$/m);
  });

  it('keeps stderr to errors with --quiet', async () => {
    fake.enqueue(reply.toolCall('list', { path: '.' }), reply.text('Quiet.'));
    const result = await oy(['run', '--quiet', '--model', MODEL, 'look around']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Quiet.\n');
    expect(result.stderr).toBe('');
  });

  it('prints NDJSON events with --json; the last line is done with the answer, usage and cost', async () => {
    fake.enqueue(
      reply.toolCall('list', { path: '.' }),
      reply.text('Two files.', { inputTokens: 40, outputTokens: 4 }),
    );
    writeFileSync(path.join(workspace, 'a.txt'), 'a');
    const result = await oy(['run', '--json', '--model', MODEL, 'what is here?']);
    expect(result.code, result.stderr).toBe(0);
    const events = parseNdjson(result.stdout);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'tool_call',
        'approval',
        'tool_result',
        'usage',
        'text_delta',
        'done',
      ]),
    );
    const done = events.at(-1);
    expect(done).toMatchObject({
      type: 'done',
      stopReason: 'completed',
      answer: 'Two files.',
      modelCalls: 2,
    });
    expect(done?.type === 'done' && done.usage.inputTokens).toBeGreaterThanOrEqual(40);
    expect(done?.type === 'done' && done.costUsd).toBeGreaterThan(0);
    expect(done?.type === 'done' && done.sessionId).toMatch(/\S/);
  });

  it('writes the final answer to --out inside the workspace', async () => {
    fake.enqueue(reply.text('# Review\n\nAll good.'));
    const result = await oy(['run', '--model', MODEL, '--out', 'reports/review.md', 'review it']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(workspace, 'reports', 'review.md'), 'utf8')).toBe(
      '# Review\n\nAll good.\n',
    );
  });

  it.each([['../outside.md'], ['/etc/oy-answer.md'], ['.git/answer.md']])(
    'refuses --out %s before any model call, with exit 2',
    async (out) => {
      const result = await oy(['run', '--model', MODEL, '--out', out, 'review it']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: --out/);
      expect(fake.modelCalls).toHaveLength(0);
    },
  );

  it('refuses a write when it cannot ask, tells the model which rule and how to allow it, and goes on', async () => {
    fake.enqueue(
      reply.toolCall('write', { path: 'notes.md', content: 'hi\n' }),
      reply.text('I was not allowed to write notes.md.'),
    );
    const result = await oy(['run', '--model', MODEL, 'write notes.md']);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(path.join(workspace, 'notes.md'))).toBe(false);
    expect(result.stderr).toContain('write notes.md denied by mode:ask');
    expect(result.stdout).toContain('not allowed');
    const sentBack = JSON.stringify(fake.modelCalls[1]!.body);
    expect(sentBack).toContain('mode:ask');
    expect(sentBack).toContain('--mode edit');
  });

  it('lets --mode edit write the same file', async () => {
    fake.enqueue(
      reply.toolCall('write', { path: 'notes.md', content: 'hi\n' }),
      reply.text('Written.'),
    );
    const result = await oy(['run', '--mode', 'accept-edits', '--model', MODEL, 'write notes.md']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('hi\n');
  });

  it('takes the prompt from stdin when no words are given', async () => {
    fake.enqueue(reply.text('Read it.'));
    const result = await oy(['run', '--model', MODEL], 'explain the stdin prompt\n');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(fake.modelCalls[0]!.body)).toContain('explain the stdin prompt');
  });

  it.each([
    [['run', '--model', MODEL], '', /no prompt/],
    [['run', 'hello there'], undefined, /no model configured/],
    [
      ['run', '--model', MODEL, '--mode', 'reckless', 'x y'],
      undefined,
      /--mode must be one of plan, ask, edit, auto, got `reckless`/,
    ],
    [
      ['run', '--model', MODEL, '--max-turns', '0', 'x y'],
      undefined,
      /--max-turns must be a whole number/,
    ],
    [
      ['run', '--model', 'openai::unpriced-model', '--max-cost', '1', 'x y'],
      undefined,
      /--max-cost cannot be enforced/,
    ],
    [['run', '--model', MODEL, '-c', '--resume', '1', 'x y'], undefined, /cannot be used together/],
    [['audti'], undefined, /unknown command "audti"[\s\S]*did you mean oy audit/],
  ])('refuses %j with exit 2 and no model call', async (args, input, pattern) => {
    const result = await oy(args, input);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr).toMatch(/^error: /);
    expect(fake.modelCalls).toHaveLength(0);
  });

  it('runs `oy "some prompt"` as `oy run "some prompt"`', async () => {
    fake.enqueue(reply.text('Shorthand works.'));
    const result = await oy(['--model', MODEL, 'fix the typo in README']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Shorthand works.\n');
    expect(JSON.stringify(fake.modelCalls[0]!.body)).toContain('fix the typo in README');
  });

  it('runs a lone word that is no near-typo of a command as a prompt (`oy hello`)', async () => {
    fake.enqueue(reply.text('Hello yourself.'));
    const result = await oy(['--model', MODEL, 'hello']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Hello yourself.\n');
    expect(JSON.stringify(fake.modelCalls[0]!.body)).toContain('hello');
  });

  it('takes a single word as a prompt when a run flag says it is one', async () => {
    fake.enqueue(reply.text('Hello to you.'));
    const result = await oy(['--mode', 'plan', '--model', MODEL, 'hello']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Hello to you.\n');
  });

  it('shows the help for a bare `oy`', async () => {
    const result = await oy([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('oy "<prompt>"');
    expect(result.stdout).toContain('run [...prompt]');
  });

  it('exits 1 at --max-turns, with the summary as the answer and a warning on stderr', async () => {
    fake.enqueue(
      reply.toolCall('list', { path: '.' }),
      reply.text('Summary: listed the files, nothing changed.'),
    );
    const result = await oy(['run', '--model', MODEL, '--max-turns', '1', 'tidy everything']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('Summary: listed the files, nothing changed.\n');
    expect(result.stderr).toContain('warning: stopped after 1 model calls');
    fake.assertDone();
  });

  it('exits 1 with one error line when the provider keeps failing', async () => {
    fake.enqueue(reply.error(401));
    const result = await oy(['run', '--model', MODEL, 'anything at all']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: anthropic::claude-haiku-4-5: /m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('never sends a secret planted in a file the model reads', async () => {
    const secrets = createSecretFactory(11);
    const planted = [secrets.awsAccessKeyId(), secrets.openaiProjectKey(), secrets.slackBotToken()];
    writeFileSync(
      path.join(workspace, 'deploy.sh'),
      planted.map((value, index) => `export TOKEN_${index}="${value}"\n`).join(''),
    );
    fake.enqueue(
      reply.toolCall('read', { path: 'deploy.sh' }),
      reply.toolCall('search', { pattern: 'TOKEN' }),
      reply.toolCall('bash', { command: 'cat deploy.sh; env | grep TOKEN_ || true' }),
      reply.text('Three tokens.'),
    );
    const result = await oy([
      'run',
      '--model',
      MODEL,
      '--mode',
      'auto',
      `what does deploy.sh export? it starts with ${planted[0]}`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const bodies = fake.modelCalls.map((request) => request.rawBody).join('\n');
    expect(bodies).toContain('[REDACTED:');
    expect(bodies).toContain('export TOKEN_2=');
    const sessions = readTree(path.join(process.env.XDG_STATE_HOME!, 'oy', 'sessions'));
    expect(sessions).toContain('[REDACTED:');
    for (const value of planted) {
      expect(bodies).not.toContain(value);
      expect(sessions).not.toContain(value);
      expect(result.stdout + result.stderr).not.toContain(value);
    }
  });
});
